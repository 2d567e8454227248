import { formatAddress, inRange, isPublicAddress, parseAddress, parseRange } from './network-address';

const publicity = (text: string): boolean => {
  const address = parseAddress(text);
  if (!address) throw new Error(`not an address: ${text}`);
  return isPublicAddress(address);
};

describe('isPublicAddress', () => {
  it.each([
    '0.0.0.0', '0.1.2.3', '10.0.0.1', '100.64.0.1', '100.127.255.255', '127.0.0.1', '127.255.255.254', '169.254.169.254',
    '172.16.0.1', '172.31.255.255', '192.0.0.8', '192.0.2.1', '192.88.99.1', '192.168.1.1', '198.18.0.1', '198.51.100.7',
    '203.0.113.9', '224.0.0.1', '239.255.255.250', '240.0.0.1', '255.255.255.255',
  ])('refuses IPv4 %s', (address) => {
    expect(publicity(address)).toBe(false);
  });

  it.each([
    '::', '::1', 'fe80::1', 'febf::1', 'fc00::1', 'fd12:3456::1', 'ff02::1', 'fec0::1', '2001:db8::1', '2001::1', '2002:7f00:1::1',
    '100::1', '64:ff9b:1::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', '::ffff:169.254.169.254', '::127.0.0.1',
    '64:ff9b::10.0.0.1', '64:ff9b::a9fe:a9fe', '[::1]', '3fff::1',
  ])('refuses IPv6 %s', (address) => {
    expect(publicity(address)).toBe(false);
  });

  it.each(['1.1.1.1', '140.82.121.4', '8.8.8.8', '100.128.0.1', '172.32.0.1', '192.169.0.1', '2606:4700::1111', '2a00:1450:4001::200e',
    '::ffff:140.82.121.4', '64:ff9b::140.82.121.4', '[2606:4700::1111]'])('accepts public %s', (address) => {
    expect(publicity(address)).toBe(true);
  });

  it('does not read other spellings or zone ids as addresses (the resolver turns those into canonical ones)', () => {
    for (const text of ['2130706433', '0x7f.1', '127.1', '0177.0.0.1', 'fe80::1%eth0', 'localhost', '']) {
      expect(parseAddress(text)).toBeNull();
    }
  });
});

describe('parseRange and formatAddress', () => {
  it('reads networks and single addresses', () => {
    const net = parseRange('10.20.0.0/16')!;
    expect(inRange(parseAddress('10.20.3.4')!, net)).toBe(true);
    expect(inRange(parseAddress('10.21.0.1')!, net)).toBe(false);
    expect(inRange(parseAddress('fd00::5')!, parseRange('fd00::/8')!)).toBe(true);
    expect(inRange(parseAddress('10.20.3.4')!, parseRange('fd00::/8')!)).toBe(false);
    expect(inRange(parseAddress('192.168.1.1')!, parseRange('192.168.1.1')!)).toBe(true);
    for (const bad of ['10.0.0.0/33', '10.0.0.0/x', 'fd00::/129', 'example.org', '10.0.0.0/8/8']) expect(parseRange(bad)).toBeNull();
  });

  it('formats addresses the way curl takes them', () => {
    expect(formatAddress(parseAddress('140.82.121.4')!)).toBe('140.82.121.4');
    expect(formatAddress(parseAddress('2606:4700::1111')!)).toBe('[2606:4700:0:0:0:0:0:1111]');
  });
});
