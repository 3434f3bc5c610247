/**
 * Text that redaction must cover (kind set) or leave alone (kind null), shared by the detector
 * unit test and the fixture page judged on pixels. Every secret here is made up.
 */
import type { RedactKind } from '#shared/schemas/redaction.ts';

export interface CorpusEntry {
  /** What it is, for test names. */
  name: string;
  /** The line as the page shows it. */
  line: string;
  /** The part that must be covered; absent for a line that must stay untouched. */
  secret?: string;
  kind: RedactKind | null;
}

// Built from parts, so no scanner mistakes this file for a leak.
const PEM_BODY = [
  'MIIBOgIBAAJBAKj34GkxFhD90vcNLYLInFEX6Ppy1tPf9Cnzj4p4WGeKLs1Pt8Qu',
  'KUpRKfFLfRYC9AIKjbJTWit+CqvjWYzvQwECAwEAAQJAIJLixBy2qpFoS4DSmoEm',
  'o3qGy0t6z09AIJtH+5OeRV1be+N4cDYJKffGzDa88vQENZiRm0GRq6a+HPGQMd2k',
  'TQIhAKMSvzIBnni7ot/OSie2TmJLY4SwTQAevXysE2RbFDYdAiEBCUEaRQnMnbp7',
].join('\n');
const JWT = ['eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9', 'eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkphbmUgRG9lIn0', 'SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c'].join(
  '.',
);
const GITHUB = ['ghp', 'wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO0pINUx'].join('_');
const SLACK = ['xoxb', '123456789012', '1234567890123', 'AbCdEfGhIjKlMnOpQrStUvWx'].join('-');
const NPM = ['npm', 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789'].join('_');
const STRIPE = ['sk', 'live', '51H8xYzAbCdEfGhIjKlMnOpQr'].join('_');
const AWS = ['AKIA', 'Q3EGRSTUVWXYZ234'].join('');

export const CORPUS: CorpusEntry[] = [
  // E-mail
  { name: 'a plain address', line: 'Contact: jane.doe@example.com for access', secret: 'jane.doe@example.com', kind: 'email' },
  { name: 'an address with a plus tag', line: 'Billing: ops+billing@acme-corp.co.uk', secret: 'ops+billing@acme-corp.co.uk', kind: 'email' },
  { name: 'an address in parentheses', line: 'Owner (m.rossi@mail.example.it)', secret: 'm.rossi@mail.example.it', kind: 'email' },
  { name: 'an upper-case address', line: 'Reply to SUPPORT@EXAMPLE.ORG today', secret: 'SUPPORT@EXAMPLE.ORG', kind: 'email' },
  { name: 'an asset name with @2x', line: 'Icon file: logo@2x.png', kind: null },
  { name: 'a social handle', line: 'Follow us @easel_app', kind: null },
  { name: 'an at sign in prose', line: 'Meet us @ the booth at 10:30', kind: null },
  // Phone
  { name: 'an international number', line: 'Call +44 20 7946 0958 now', secret: '+44 20 7946 0958', kind: 'phone' },
  { name: 'a US number with parentheses', line: 'Phone: (415) 555-2671', secret: '(415) 555-2671', kind: 'phone' },
  { name: 'a German number', line: 'Tel. +49 30 901820', secret: '+49 30 901820', kind: 'phone' },
  { name: 'a French number', line: 'Mobile +33 6 12 34 56 78', secret: '+33 6 12 34 56 78', kind: 'phone' },
  { name: 'a dashed US number', line: 'Support line 212-555-0123 (24 h)', secret: '212-555-0123', kind: 'phone' },
  { name: 'an order number', line: 'Order #4155552671 shipped', kind: null },
  { name: 'an ISO date', line: 'Created 2024-03-15', kind: null },
  { name: 'a dotted date', line: 'Due 15.03.2024', kind: null },
  { name: 'a time range', line: 'Open 09:00-17:30 daily', kind: null },
  { name: 'an invoice reference with dashes', line: 'Invoice INV-2024-000123', kind: null },
  { name: 'a price', line: 'Total $1,234.56', kind: null },
  { name: 'a dashed serial that is no valid number', line: 'Serial 123-456-7890', kind: null },
  // Cards
  { name: 'a Visa number in groups', line: 'Card 4111 1111 1111 1111 on file', secret: '4111 1111 1111 1111', kind: 'card' },
  { name: 'a Mastercard number with dashes', line: 'MC 5555-5555-5555-4444', secret: '5555-5555-5555-4444', kind: 'card' },
  { name: 'an Amex number', line: 'Amex 3782 822463 10005', secret: '3782 822463 10005', kind: 'card' },
  { name: 'a Visa number run together', line: 'PAN 4012888888881881', secret: '4012888888881881', kind: 'card' },
  { name: 'a 16-digit number failing Luhn', line: 'Ref 4111 1111 1111 1112', kind: null },
  { name: 'a 16-digit tracking number', line: 'Tracking 1234567812345678', kind: null },
  { name: 'the last four digits', line: 'Visa ending in 4242', kind: null },
  // Secrets
  { name: 'a GitHub token', line: `GITHUB_TOKEN=${GITHUB}`, secret: GITHUB, kind: 'secret' },
  { name: 'a Slack bot token', line: `slack: ${SLACK}`, secret: SLACK, kind: 'secret' },
  { name: 'an npm token', line: `//registry.npmjs.org/:_authToken=${NPM}`, secret: NPM, kind: 'secret' },
  { name: 'a Stripe live key', line: `STRIPE_KEY ${STRIPE}`, secret: STRIPE, kind: 'secret' },
  { name: 'an AWS access key id', line: `aws_access_key_id = ${AWS}`, secret: AWS, kind: 'secret' },
  { name: 'a JWT', line: `token: ${JWT}`, secret: JWT, kind: 'secret' },
  { name: 'a bearer token', line: 'Authorization: Bearer 7fc3a1e9b2d84c6f9e0a5b1d3c7e2f48', secret: '7fc3a1e9b2d84c6f9e0a5b1d3c7e2f48', kind: 'secret' },
  {
    name: 'a connection string with a password',
    line: 'DATABASE_URL=postgres://app:s3cretPa55@db.internal:5432/app',
    secret: 'postgres://app:s3cretPa55@db.internal:5432/app',
    kind: 'secret',
  },
  {
    name: 'a private key',
    line: `-----BEGIN RSA PRIVATE KEY-----\n${PEM_BODY}\n-----END RSA PRIVATE KEY-----`,
    secret: `-----BEGIN RSA PRIVATE KEY-----\n${PEM_BODY}\n-----END RSA PRIVATE KEY-----`,
    kind: 'secret',
  },
  { name: 'a git commit hash', line: 'commit 9fceb02d0ae598e95dc970b74767f19372d61af8', kind: null },
  { name: 'a UUID', line: 'Request id 0191f3a4-7b2c-7e3d-9a4b-5c6d7e8f9012', kind: null },
  { name: 'the word Bearer in prose', line: 'The bearer of this card is welcome', kind: null },
  { name: 'a public key header', line: '-----BEGIN PUBLIC KEY-----', kind: null },
  // IP addresses
  { name: 'an IPv4 address', line: 'Server 203.0.113.42 is up', secret: '203.0.113.42', kind: 'ip' },
  { name: 'an IPv4 address with a port', line: 'Listening on 10.0.0.12:8080', secret: '10.0.0.12', kind: 'ip' },
  { name: 'an IPv6 address', line: 'Peer 2001:db8:85a3::8a2e:370:7334 connected', secret: '2001:db8:85a3::8a2e:370:7334', kind: 'ip' },
  { name: 'the IPv6 loopback', line: 'Bound to ::1 only', secret: '::1', kind: 'ip' },
  { name: 'a four-part version', line: 'Build v1.2.3.4', kind: null },
  { name: 'a version string', line: 'libphonenumber-js 1.13.16', kind: null },
  { name: 'a dotted quad out of range', line: 'Code 300.1.2.999', kind: null },
  { name: 'a MAC address', line: 'MAC 00:1A:2B:3C:4D:5E', kind: null },
  { name: 'a clock time', line: 'Last seen 12:30:45', kind: null },
];
