import { heapGrowthFlag, POSTGRES_HEAP_GROWING_PERCENT } from './heap-growth';

describe('heapGrowthFlag', () => {
  const flag = `--heap-growing-percent=${POSTGRES_HEAP_GROWING_PERCENT}`;

  it('gives the large-heap factor on PostgreSQL', () => {
    expect(heapGrowthFlag(true, ['--max-old-space-size=256'], undefined)).toBe(flag);
    expect(heapGrowthFlag(true, [], '--max-semi-space-size=4 --max-old-space-size=256')).toBe(flag);
  });

  it('leaves the embedded database to V8', () => {
    expect(heapGrowthFlag(false, [], undefined)).toBeNull();
  });

  it("never overrides the operator's own setting", () => {
    expect(heapGrowthFlag(true, ['--heap-growing-percent=50'], undefined)).toBeNull();
    expect(heapGrowthFlag(true, ['--heap_growing_percent', '50'], undefined)).toBeNull();
    expect(heapGrowthFlag(true, [], '--max-old-space-size=512 --heap-growing-percent=20')).toBeNull();
    expect(heapGrowthFlag(true, [], '--heap-growing-percent=20')).toBeNull();
  });

  it('is not fooled by a longer flag name', () => {
    expect(heapGrowthFlag(true, ['--heap-growing-percentage-x=1'], undefined)).toBe(flag);
  });
});
