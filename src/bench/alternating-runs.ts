/**
 * `runs` rounds of two measurements taken side by side, alternating which goes first (A B, B A, A B, …), so that
 * a drift of the machine's speed during the rounds falls on both alike. Returns each one's results in round order.
 */
export async function alternatingRuns<T>(runs: number, first: () => Promise<T>, second: () => Promise<T>): Promise<[T[], T[]]> {
  const firsts: T[] = [];
  const seconds: T[] = [];
  for (let round = 0; round < runs; round += 1) {
    if (round % 2 === 0) {
      firsts.push(await first());
      seconds.push(await second());
    } else {
      seconds.push(await second());
      firsts.push(await first());
    }
  }
  return [firsts, seconds];
}
