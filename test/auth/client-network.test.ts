// What a per-IP limit counts: an IPv4 address as it is, an IPv6 client by its /64 whatever the
// notation, an IPv4-mapped IPv6 address as the IPv4 address it maps.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { clientNetwork } from '../../src/auth/client-network.ts';

describe('clientNetwork', () => {
  test('IPv4: the address itself', () => {
    assert.equal(clientNetwork('203.0.113.7'), '203.0.113.7');
    assert.notEqual(clientNetwork('203.0.113.7'), clientNetwork('203.0.113.8'));
  });

  test('IPv6: the /64, however the address is written', () => {
    const network = '2001:db8:1:2::/64';
    for (const ip of [
      '2001:db8:1:2::1',
      '2001:db8:1:2:ffff:ffff:ffff:ffff',
      '2001:0DB8:0001:0002:0000:0000:0000:0001',
      '2001:db8:1:2:a:b:192.0.2.1',
      'fe80::1%eth0'.replace('fe80::', '2001:db8:1:2::'),
    ]) {
      assert.equal(clientNetwork(ip), network, ip);
    }
    assert.equal(clientNetwork('2001:db8:1:3::1'), '2001:db8:1:3::/64');
    assert.equal(clientNetwork('::1'), '0:0:0:0::/64');
    assert.equal(clientNetwork('2001:db8::'), '2001:db8:0:0::/64');
  });

  test('IPv4-mapped IPv6: the IPv4 address', () => {
    assert.equal(clientNetwork('::ffff:192.0.2.7'), '192.0.2.7');
    assert.equal(clientNetwork('::FFFF:c000:0207'), '192.0.2.7');
    assert.equal(clientNetwork('0:0:0:0:0:ffff:192.0.2.7'), '192.0.2.7');
  });

  test('anything else is kept as it is', () => {
    assert.equal(clientNetwork(''), '');
    assert.equal(clientNetwork('not-an-address'), 'not-an-address');
  });
});
