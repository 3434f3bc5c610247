/**
 * Real-looking lines of pages (bylines, tables of figures, changelogs, contact lines, logs, code,
 * receipts) with what each should yield, to count what the detectors find, miss and find falsely.
 * Every secret and number here is made up; look-alikes are no valid number anywhere.
 */
import type { RedactKind } from '#shared/schemas/redaction.ts';

export interface PrecisionLine {
  line: string;
  /** What should be found, as `kind:text`. */
  expected: `${RedactKind}:${string}`[];
  /** Found by no detector, on purpose or as a known gap (docs/capture.md, "What is not found"): counted as missed. */
  missed?: `${RedactKind}:${string}`[];
  /** The page's language, where it decides how national numbers are read. */
  lang?: string;
}

const TOKEN = ['ghp', 'Zq3LMn0pR7sT2uVw4xYa6bCd8eFg0hIj1kLm'].join('_');

export const PRECISION_LINES: PrecisionLine[] = [
  // Bylines and dates with times, in the forms news sites print them.
  { line: '2016-05-17 10:23:58 来源：新华网', expected: [] },
  { line: '发稿时间：2017-03-10 08:42:00 来源：人民日报海外版', expected: [] },
  { line: '2017-03-10 09:58　来源：网易科学人', expected: [] },
  { line: '2016年5月17日 10:23 来源：中国新闻网', expected: [] },
  { line: 'Veröffentlicht am 17.05.2016, 10:23 Uhr', expected: [] },
  { line: 'Publié le 17/05/2016 à 10h23, mis à jour à 11h05', expected: [] },
  { line: 'Updated 10:23 a.m. ET May 17, 2016', expected: [] },
  { line: 'Posted 05/17/2016 10:23 PM by Jane Doe', expected: [] },
  { line: '"dateCreated":{"date":"2017-10-30 19:55:39","timezone_type":3}', expected: [] },
  { line: 'Last modified: 2024-03-15T14:05:09.123Z', expected: [] },
  { line: 'Published 2020-08-01 17:57:00+00', expected: [] },
  { line: '最終更新日時：2019/11/05 18:30', expected: [] },
  { line: 'Date: Tue, 17 May 2016 10:23:58 +0200', expected: [] },
  // Tables of figures and statistics.
  { line: '1.2511263318488451 │ 7.415540334817821', expected: [] },
  { line: '3.4114080550460080 │ 2020-08-01 18:02:00', expected: [] },
  { line: '0.5382691050147506 │ 200 │ 2020-08-01 17:57:00+00', expected: [] },
  { line: 'mean 3.1415926535897932, sd 0.0000000000000012', expected: [] },
  { line: 'Population: 7,900,000,000 (2021 est.)', expected: [] },
  { line: 'GDP 21,433,226,000,000 USD', expected: [] },
  { line: 'Total  1 234 567,89 €', expected: [] },
  { line: 'p < 0.0001; n = 1,204; 95% CI 1.02–1.37', expected: [] },
  { line: 'Coordinates: 40.7128° N, 74.0060° W', expected: [] },
  { line: 'lat 51.507351, lon -0.127758', expected: [] },
  { line: 'Score 4111111111111111.5 points', expected: [] },
  // Versions, builds and identifiers.
  { line: 'Chrome 153.0.8010.36 (Official Build)', expected: [] },
  { line: 'Release v2.14.3-beta.1 (build 20240315.1)', expected: [] },
  { line: 'iOS 17.4.1, Android 14 (API 34)', expected: [] },
  { line: 'Version 10.0.19045.4170', expected: [] },
  { line: 'Request id 0191f3a4-7b2c-7e3d-9a4b-5c6d7e8f9012', expected: [] },
  { line: 'Order #4155552671 shipped', expected: [] },
  { line: 'order 2024-000123 confirmed', expected: [] },
  { line: 'Invoice INV-2024-000123', expected: [] },
  { line: 'ISBN 978-3-16-148410-0', expected: [] },
  { line: 'ISSN 0317-8471', expected: [] },
  { line: 'DOI 10.1000/182', expected: [] },
  { line: 'Tracking 1Z999AA10123456784', expected: [] },
  { line: 'Case No. 1:16-cv-04521', expected: [] },
  { line: 'Ticket JIRA-20451, PR #1182', expected: [] },
  { line: 'commit 9fceb02d0ae598e95dc970b74767f19372d61af8', expected: [] },
  { line: 'sha256:4d6a7f0b2c8e1f3a5b7c9d0e2f4a6b8c0d1e3f5a7b9c1d3e5f7a9b1c3d5e7f9a', expected: [] },
  { line: '<img src="https://www.facebook.com/tr?id=687168111412131&ev=PageView">', expected: [] },
  { line: 'https://example.com/item/4111111111111111?ref=mail', expected: [] },
  { line: 'RFC 6749, section 4.1.2; RFC 7519', expected: [] },
  { line: 'Serial 123-456-7890', expected: [] },
  { line: 'Part no. 555-0123-A', expected: [] },
  { line: 'Account 000123456789 (savings)', expected: [] },
  // Times, durations and ranges.
  { line: 'Open 09:00-17:30 daily', expected: [] },
  { line: 'Lap times 1:23.456, 1:22.987', expected: [] },
  { line: 'Duration 01:02:03.456', expected: [] },
  { line: 'Last seen 12:30:45', expected: [] },
  { line: 'Pages 120-135, 2nd ed.', expected: [] },
  // Prices and amounts.
  { line: 'Total $1,234.56 (tax incl.)', expected: [] },
  { line: 'Price: 1.299,00 € inkl. MwSt.', expected: [] },
  { line: '¥ 12,800 (税込)', expected: [] },
  // Handles and names that only look like addresses.
  { line: 'Icon file: logo@2x.png', expected: [] },
  { line: 'Follow us @easel_app and #screenshots', expected: [] },
  { line: 'npm install @secretlint/core@13.1.0', expected: [] },
  { line: 'Meet us @ the booth at 10:30', expected: [] },
  { line: 'user@localhost accepted the key', expected: [] },
  { line: 'git@github.com:easel/easel.git', expected: ['email:git@github.com'] },
  // Contact lines.
  { line: 'Email dan.goodin@arstechnica.com // Twitter @dangoodin001', expected: ['email:dan.goodin@arstechnica.com'] },
  { line: 'Benjamin Romano: 206-652-6593 or bromano@seattletimes.com', expected: ['phone:206-652-6593', 'email:bromano@seattletimes.com'] },
  { line: 'Got a Tip? Call TMZ at (888) 847-9869 or Click Here', expected: ['phone:(888) 847-9869'] },
  { line: 'Questions? Email us at accessibility@nytimes.com.', expected: ['email:accessibility@nytimes.com'] },
  { line: 'Bradley M. Kuhn <bkuhn@ebb.org>', expected: ['email:bkuhn@ebb.org'] },
  { line: 'Contact: First.Last+news@mail.example.co.uk', expected: ['email:First.Last+news@mail.example.co.uk'] },
  { line: 'Reply to SUPPORT@EXAMPLE.ORG today', expected: ['email:SUPPORT@EXAMPLE.ORG'] },
  { line: 'mailto:press@example.com?subject=Hi', expected: ['email:press@example.com'] },
  { line: 'Call us on +44 20 7946 0958 (Mon–Fri)', expected: ['phone:+44 20 7946 0958'] },
  { line: 'Tel. +44 (0)20 7946 0958', expected: ['phone:+44 (0)20 7946 0958'] },
  { line: 'Call 1-800-555-0199 toll free', expected: ['phone:1-800-555-0199'] },
  { line: 'Phone: (415) 555-2671 ext. 12', expected: ['phone:(415) 555-2671'] },
  { line: 'Office 212.555.0123, cell 415 555 2671', expected: ['phone:212.555.0123', 'phone:415 555 2671'] },
  { line: 'Fax +49 30 901820', expected: ['phone:+49 30 901820'] },
  { line: 'Tel.: 030 901820', expected: ['phone:030 901820'], lang: 'de-DE' },
  { line: 'Téléphone : 01 42 68 53 00', expected: ['phone:01 42 68 53 00'], lang: 'fr-FR' },
  { line: 'Mobile +33 6 12 34 56 78', expected: ['phone:+33 6 12 34 56 78'] },
  { line: 'Tokyo office +81 3-1234-5678', expected: ['phone:+81 3-1234-5678'] },
  { line: 'Beijing +86 10 6552 9988', expected: ['phone:+86 10 6552 9988'] },
  { line: 'Sydney +61 2 9374 4000', expected: ['phone:+61 2 9374 4000'] },
  { line: 'Mumbai +91 22 2202 2627', expected: ['phone:+91 22 2202 2627'] },
  { line: 'Support: 020 7946 0958', expected: ['phone:020 7946 0958'], lang: 'en-GB' },
  // Numbers people write in groups their country does not use, national and without +.
  { line: 'Ruf: 030 90 18 20', expected: [], missed: ['phone:030 90 18 20'], lang: 'de-DE' },
  { line: 'Call 0207 946 0958', expected: [], missed: ['phone:0207 946 0958'], lang: 'en-GB' },
  // Addresses written so that machines do not read them.
  { line: 'jane [at] example [dot] com', expected: [], missed: ['email:jane [at] example [dot] com'] },
  { line: 'Contact josé@exämple.com', expected: [], missed: ['email:josé@exämple.com'] },
  // Cards.
  { line: 'Visa 4111 1111 1111 1111 exp 12/27', expected: ['card:4111 1111 1111 1111'] },
  { line: 'MC 5500-0000-0000-0004', expected: ['card:5500-0000-0000-0004'] },
  { line: 'Amex 3782 822463 10005', expected: ['card:3782 822463 10005'] },
  { line: 'Discover 6011 0000 0000 0004', expected: ['card:6011 0000 0000 0004'] },
  { line: 'PAN: 4012888888881881', expected: ['card:4012888888881881'] },
  { line: 'card=4242424242424242 cvc=123', expected: ['card:4242424242424242'] },
  { line: 'Visa ending in 4242', expected: [] },
  { line: '**** **** **** 4242', expected: [] },
  { line: 'Ref 4111 1111 1111 1112 (fails Luhn)', expected: [] },
  { line: 'Tracking 1234567812345678', expected: [] },
  { line: 'IBAN DE89 3704 0044 0532 0130 00', expected: [] },
  { line: 'USPS 9400 1000 0000 0000 0000 00', expected: [] },
  { line: 'EAN 4006381333931', expected: [] },
  // Secrets in logs, settings and code.
  { line: 'Authorization: Bearer j2YnGtXjzzzHNjkd1CJxoQubA1o=', expected: ['secret:j2YnGtXjzzzHNjkd1CJxoQubA1o='] },
  { line: `export GITHUB_TOKEN=${TOKEN}`, expected: [`secret:${TOKEN}`] },
  { line: 'aws_access_key_id = AKIAQ3EGRSTUVWXYZ234', expected: ['secret:AKIAQ3EGRSTUVWXYZ234'] },
  { line: 'DATABASE_URL=postgres://app:s3cretPa55@db.internal:5432/app', expected: ['secret:postgres://app:s3cretPa55@db.internal:5432/app'] },
  { line: 'The bearer of this card is welcome', expected: [] },
  { line: 'AWS example key AKIAIOSFODNN7EXAMPLE', expected: [] },
  { line: '-----BEGIN PUBLIC KEY-----', expected: [] },
  { line: 'password: ********', expected: [] },
  // IP addresses in logs.
  { line: '203.0.113.42 - - [17/May/2016:10:23:58 +0200] "GET / HTTP/1.1" 200 512', expected: ['ip:203.0.113.42'] },
  { line: 'Listening on 10.0.0.12:8080', expected: ['ip:10.0.0.12'] },
  { line: 'Peer 2001:db8:85a3::8a2e:370:7334 connected', expected: ['ip:2001:db8:85a3::8a2e:370:7334'] },
  { line: 'inet6 fe80::1ff:fe23:4567:890a%eth0', expected: ['ip:fe80::1ff:fe23:4567:890a'] },
  { line: 'Build v1.2.3.4', expected: [] },
  { line: 'MAC 00:1A:2B:3C:4D:5E', expected: [] },
  { line: 'Code 300.1.2.999', expected: [] },
  { line: 'at 12:30:45 and 13:01:02', expected: [] },
];
