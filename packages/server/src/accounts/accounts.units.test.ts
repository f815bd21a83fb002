import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { countryOrDefault, ISO_COUNTRY_COUNT } from './country.js';
import { decodeUserCode, encodeUserCode } from './user-code.js';

describe('userCode encoding', () => {
  it('is Crockford base32 padded to 7 symbols plus a check symbol', () => {
    assert.equal(encodeUserCode(0), '00000000');
    assert.equal(encodeUserCode(1).slice(0, 7), '0000001');
    assert.equal(encodeUserCode(32).slice(0, 7), '0000010');
    assert.match(encodeUserCode(2 ** 40), /^1[0]{8}[0-9A-HJKMNP-TV-Z]$/, '32^8 takes 9 symbols, then the check');
  });

  it('round-trips, and a single mistyped symbol is caught', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 45 }), fc.nat(7), fc.nat(31), (id, pos, delta) => {
        const code = encodeUserCode(id);
        assert.equal(decodeUserCode(code), id);
        assert.equal(decodeUserCode(code.toLowerCase()), id);
        const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
        const i = pos % code.length;
        const swapped = alphabet[(alphabet.indexOf(code[i]!) + 1 + (delta % 31)) % 32]!;
        assert.equal(decodeUserCode(code.slice(0, i) + swapped + code.slice(i + 1)), null);
      }),
      { numRuns: 300 },
    );
  });

  it('refuses what is not a code', () => {
    for (const bad of ['', 'ABC', '0000000I', '00000000000000000', 'ÄÖÜ00000'])
      assert.equal(decodeUserCode(bad), null, bad);
  });
});

describe('edge country (userRegion)', () => {
  it('accepts the 249 assigned ISO 3166-1 alpha-2 codes, anything else is DF', () => {
    assert.equal(ISO_COUNTRY_COUNT, 249);
    assert.equal(countryOrDefault('jp'), 'JP');
    assert.equal(countryOrDefault(' US '), 'US');
    for (const bad of [undefined, '', 'XX', 'T1', 'EU', 'UK', 'USA', 'J', ['JP', 'US']] as const)
      assert.equal(countryOrDefault(bad as never), 'DF', String(bad));
  });
});
