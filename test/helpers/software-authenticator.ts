// A passkey authenticator in software, for the tests: an ES256 key pair made with node:crypto,
// "none" attestation, authenticator data with the flags and signature counter a real one
// writes (user present, user verified, attested credential data on creation). It answers the
// service's options the way a browser's navigator.credentials answers a page, as the JSON that
// @simplewebauthn/browser hands back.
import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';

const UP = 0x01;
const UV = 0x04;
const BE = 0x08;
const BS = 0x10;
const AT = 0x40;

/** The little CBOR a "none" attestation needs: maps, byte and text strings, small integers. */
function cbor(value: unknown): Buffer {
  const head = (major: number, length: number): Buffer => {
    if (length < 24) return Buffer.from([(major << 5) | length]);
    if (length < 256) return Buffer.from([(major << 5) | 24, length]);
    return Buffer.from([(major << 5) | 25, length >> 8, length & 0xff]);
  };
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') return Buffer.concat([head(3, Buffer.byteLength(value)), Buffer.from(value)]);
  if (Buffer.isBuffer(value)) return Buffer.concat([head(2, value.length), value]);
  if (value instanceof Map) {
    return Buffer.concat([head(5, value.size), ...[...value].flatMap(([k, v]) => [cbor(k), cbor(v)])]);
  }
  throw new Error(`cbor: cannot encode ${typeof value}`);
}

export interface Origin {
  /** The page's origin, as the browser writes it into clientDataJSON. */
  origin: string;
  /** The RP id whose hash starts the authenticator data. */
  rpId: string;
}

export interface SoftwarePasskey {
  credentialId: Buffer;
  privateKey: KeyObject;
  publicKey: KeyObject;
  userHandle: string;
  counter: number;
}

export class SoftwareAuthenticator {
  readonly passkeys: SoftwarePasskey[] = [];
  /** Whether the person is verified (PIN, biometrics); false answers without UV. */
  userVerified = true;
  /** Whether the authenticator keeps a signature counter; false always writes 0. */
  keepsCounter = true;
  backedUp = false;

  readonly site: Origin;

  constructor(site: Origin) {
    this.site = site;
  }

  #flags(extra: number): number {
    return UP | (this.userVerified ? UV : 0) | (this.backedUp ? BE | BS : 0) | extra;
  }

  #nextCounter(passkey: SoftwarePasskey): number {
    if (this.keepsCounter) passkey.counter += 1;
    return passkey.counter;
  }

  #clientData(type: string, challenge: string, site: Origin): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin: site.origin, crossOrigin: false }));
  }

  /** navigator.credentials.create() for the creation options; a new passkey kept here. */
  create(options: { challenge: string; user: { id: string } }, site: Origin = this.site) {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const passkey: SoftwarePasskey = { credentialId: randomBytes(16), privateKey, publicKey, userHandle: options.user.id, counter: 0 };
    const jwk = publicKey.export({ format: 'jwk' });
    const coseKey = cbor(
      new Map<number, unknown>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]),
    );
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(this.#nextCounter(passkey));
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(passkey.credentialId.length);
    const authData = Buffer.concat([
      createHash('sha256').update(site.rpId).digest(),
      Buffer.from([this.#flags(AT)]),
      counter,
      Buffer.alloc(16), // AAGUID: none
      idLength,
      passkey.credentialId,
      coseKey,
    ]);
    const attestationObject = cbor(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]),
    );
    this.passkeys.push(passkey);
    const id = passkey.credentialId.toString('base64url');
    return {
      id,
      rawId: id,
      type: 'public-key' as const,
      response: {
        clientDataJSON: this.#clientData('webauthn.create', options.challenge, site).toString('base64url'),
        attestationObject: attestationObject.toString('base64url'),
        transports: ['internal'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** navigator.credentials.get() for the request options, with a passkey kept here (the newest by default). */
  get(options: { challenge: string }, passkey = this.passkeys.at(-1)!, site: Origin = this.site, counterOverride?: number) {
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(counterOverride ?? this.#nextCounter(passkey));
    const authData = Buffer.concat([createHash('sha256').update(site.rpId).digest(), Buffer.from([this.#flags(0)]), counter]);
    const clientData = this.#clientData('webauthn.get', options.challenge, site);
    const signature = sign('sha256', Buffer.concat([authData, createHash('sha256').update(clientData).digest()]), passkey.privateKey);
    const id = passkey.credentialId.toString('base64url');
    return {
      id,
      rawId: id,
      type: 'public-key' as const,
      response: {
        clientDataJSON: clientData.toString('base64url'),
        authenticatorData: authData.toString('base64url'),
        signature: signature.toString('base64url'),
        userHandle: passkey.userHandle,
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }
}
