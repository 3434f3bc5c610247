/**
 * A passkey authenticator in Node for tests that run without a browser: an ES256 key pair, the
 * attestation (`none`) and assertions shaped as @simplewebauthn/browser returns them. Signing is
 * node:crypto's, the encoding @levischuck/tiny-cbor's; the browser tests use Chromium's own.
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { encodeCBOR } from '@levischuck/tiny-cbor';

const b64url = (value: Uint8Array | string) => Buffer.from(value).toString('base64url');
const sha256 = (value: Uint8Array | string) => createHash('sha256').update(value).digest();

export interface SoftAuthenticatorOptions {
  /** The page's origin, as the browser would put it in the client data. */
  origin: string;
  rpId: string;
  /** Set user presence and verification (UP, UV) in the flags; default true. */
  userVerified?: boolean;
}

/** One credential: register it once, then sign in with it any number of times. */
export class SoftAuthenticator {
  readonly credentialId = randomBytes(32);
  private readonly key: KeyObject;
  private readonly publicJwk: { x: string; y: string };
  private userHandle = '';
  counter = 0;

  private readonly options: SoftAuthenticatorOptions;

  constructor(options: SoftAuthenticatorOptions) {
    this.options = options;
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.key = privateKey;
    this.publicJwk = publicKey.export({ format: 'jwk' }) as { x: string; y: string };
  }

  get id(): string {
    return b64url(this.credentialId);
  }

  private clientData(type: string, challenge: string, origin = this.options.origin): string {
    return b64url(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  private authData(extra: Uint8Array = new Uint8Array()): Buffer {
    const flags = ((this.options.userVerified ?? true) ? 0x05 : 0x01) | (extra.length > 0 ? 0x40 : 0);
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(this.counter);
    return Buffer.concat([sha256(this.options.rpId), Buffer.from([flags]), counter, extra]);
  }

  /** The answer to registration options (`challenge`, `user.id`), as startRegistration() returns it. */
  register(options: { challenge: string; user: { id: string } }, origin?: string) {
    this.userHandle = options.user.id;
    const cose = new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(this.publicJwk.x, 'base64url')],
      [-3, Buffer.from(this.publicJwk.y, 'base64url')],
    ]);
    const length = Buffer.alloc(2);
    length.writeUInt16BE(this.credentialId.length);
    const attested = Buffer.concat([Buffer.alloc(16), length, this.credentialId, Buffer.from(encodeCBOR(cose))]);
    const attestation = encodeCBOR(
      new Map<string, string | Map<string, string> | Uint8Array>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, string>()],
        ['authData', this.authData(attested)],
      ]),
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      response: {
        clientDataJSON: this.clientData('webauthn.create', options.challenge, origin),
        attestationObject: b64url(attestation),
        transports: ['internal'],
      },
      clientExtensionResults: {},
    };
  }

  /** The answer to sign-in options, as startAuthentication() returns it; each one counts up. */
  authenticate(options: { challenge: string }, origin?: string) {
    this.counter += 1;
    const clientDataJSON = this.clientData('webauthn.get', options.challenge, origin);
    const authenticatorData = this.authData();
    const signature = sign('sha256', Buffer.concat([authenticatorData, sha256(Buffer.from(clientDataJSON, 'base64url'))]), this.key);
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      response: { clientDataJSON, authenticatorData: b64url(authenticatorData), signature: b64url(signature), userHandle: this.userHandle },
      clientExtensionResults: {},
    };
  }
}
