// A service SAS for one table, signed in the page with the account key (the key never leaves it):
// the string to sign of the Table service's SAS (version 2019-02-02), as the SDKs compute it.

import { hmacSha256, bytesToBase64 } from './signing.js';

export const SAS_VERSION = '2019-02-02';

/** ISO 8601 without fractions, as a SAS carries its times. */
export function sasTime(date) {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * The query string (without '?') of a service SAS for {@code table}: {@code permissions} of 'raud',
 * start and expiry as Dates (start optional), key range {spk, srk, epk, erk} (each optional),
 * {@code ip} (an address or range) and {@code protocol} ('https' or 'https,http') optional, or a
 * stored access policy {@code identifier} standing for what it fixes.
 */
export function tableSas(account, table, { permissions = '', start = null, expiry = null, spk = '', srk = '',
  epk = '', erk = '', ip = '', protocol = '', identifier = '' } = {}) {
  const perms = ['r', 'a', 'u', 'd'].filter(p => permissions.includes(p)).join('');
  const st = start ? sasTime(start) : '';
  const se = expiry ? sasTime(expiry) : '';
  const resource = `/table/${account.name}/${table.toLowerCase()}`;
  const toSign = [perms, st, se, resource, identifier, ip, protocol, SAS_VERSION, spk, srk, epk, erk].join('\n');
  const sig = bytesToBase64(hmacSha256(account.key, new TextEncoder().encode(toSign)));
  const params = [['sv', SAS_VERSION], ['tn', table], ['st', st], ['se', se], ['sp', perms], ['sip', ip],
    ['spr', protocol], ['si', identifier], ['spk', spk], ['srk', srk], ['epk', epk], ['erk', erk], ['sig', sig]];
  return params.filter(([, v]) => v).map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');
}
