/**
 * A software passkey for tests: an EC P-256 key made with node:crypto, and WebAuthn answers built by hand as an
 * authenticator and a browser would (attestation "none", authenticatorData, clientDataJSON), with knobs to make
 * them wrong: another origin or RP ID, no user verification, a cloned device's counter.
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

/** The CBOR this needs (RFC 8949): small maps of integer or text keys to integers, byte and text strings. */
type Cbor = number | string | Uint8Array | Map<number | string, Cbor>;
function cbor(value: Cbor): Buffer {
  const head = (major: number, n: number) => {
    if (n < 24) return Buffer.from([(major << 5) | n]);
    if (n < 256) return Buffer.from([(major << 5) | 24, n]);
    const b = Buffer.alloc(3);
    b[0] = (major << 5) | 25;
    b.writeUInt16BE(n, 1);
    return b;
  };
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') return Buffer.concat([head(3, Buffer.byteLength(value)), Buffer.from(value)]);
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), Buffer.from(value)]);
  const parts: Buffer[] = [head(5, value.size)];
  for (const [k, v] of value) parts.push(cbor(k), cbor(v));
  return Buffer.concat(parts);
}

const b64url = (b: Uint8Array) => Buffer.from(b).toString('base64url');
const sha256 = (b: Uint8Array | string) => createHash('sha256').update(b).digest();

export interface Tamper {
  origin?: string;
  rpId?: string;
  /** Leave the user-verified flag off. */
  noUserVerification?: boolean;
  type?: string;
}

export interface RequestOptionsLike {
  challenge: string;
}

export class SoftAuthenticator {
  readonly credentialId = randomBytes(16);
  private readonly privateKey: KeyObject;
  private readonly cosePublicKey: Buffer;
  private counter = 0;
  userHandle: string | undefined;

  constructor(
    readonly origin: string,
    readonly rpId = new URL(origin).hostname,
  ) {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = privateKey;
    const jwk = publicKey.export({ format: 'jwk' });
    this.cosePublicKey = cbor(
      new Map<number, Cbor>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]),
    );
  }

  private authData(rpId: string, flags: number, attested: boolean): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(this.counter);
    const parts: Buffer[] = [sha256(rpId), Buffer.from([flags]), count];
    if (attested) {
      const len = Buffer.alloc(2);
      len.writeUInt16BE(this.credentialId.length);
      parts.push(Buffer.alloc(16), len, this.credentialId, this.cosePublicKey);
    }
    return Buffer.concat(parts);
  }

  private clientData(type: string, challenge: string, t: Tamper): Buffer {
    return Buffer.from(
      JSON.stringify({ type: t.type ?? type, challenge, origin: t.origin ?? this.origin, crossOrigin: false }),
    );
  }

  /** The answer to navigator.credentials.create() with these options. */
  register(options: { challenge: string; user?: { id: string } }, t: Tamper = {}) {
    this.userHandle = options.user?.id;
    const flags = 0x01 | (t.noUserVerification ? 0 : 0x04) | 0x40; // UP, UV, AT
    const attestationObject = cbor(
      new Map<string, Cbor>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', this.authData(t.rpId ?? this.rpId, flags, true)],
      ]),
    );
    return {
      id: b64url(this.credentialId),
      rawId: b64url(this.credentialId),
      type: 'public-key',
      response: {
        clientDataJSON: b64url(this.clientData('webauthn.create', options.challenge, t)),
        attestationObject: b64url(attestationObject),
        transports: ['internal'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** A copy of this authenticator as it is now: the same key, credential and signature counter (a cloned device,
   *  whose counter falls behind the original's once the original signs in again). */
  clone(): SoftAuthenticator {
    return Object.assign(Object.create(SoftAuthenticator.prototype) as SoftAuthenticator, this);
  }

  /** The answer to navigator.credentials.get() with these options. */
  authenticate(options: RequestOptionsLike, t: Tamper = {}) {
    this.counter++;
    const flags = 0x01 | (t.noUserVerification ? 0 : 0x04);
    const authenticatorData = this.authData(t.rpId ?? this.rpId, flags, false);
    const clientDataJSON = this.clientData('webauthn.get', options.challenge, t);
    const signature = sign('sha256', Buffer.concat([authenticatorData, sha256(clientDataJSON)]), this.privateKey);
    return {
      id: b64url(this.credentialId),
      rawId: b64url(this.credentialId),
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authenticatorData),
        signature: b64url(signature),
        ...(this.userHandle ? { userHandle: this.userHandle } : {}),
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }
}
