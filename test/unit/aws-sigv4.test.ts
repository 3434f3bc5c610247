/**
 * Our SigV4 (shared/aws/sigv4.ts) against the SDK's: the SDK's DynamoDB client sends real
 * requests to a local server that records them, and signing the same request (the headers the
 * SDK signed, its body and its date) with ours must give the very same Authorization header. The
 * embedded DynamoDB checks no signature, so this is what shows AWS will accept the functions'.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DynamoDBClient, GetItemCommand, PutItemCommand, QueryCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { amzDate, sign, type AwsCredentials } from '#shared/aws/sigv4.ts';

interface Recorded {
  headers: IncomingHttpHeaders;
  body: string;
}

const recorded: Recorded[] = [];
const server = createServer((request, response) => {
  let body = '';
  request.setEncoding('utf8');
  request.on('data', (chunk: string) => (body += chunk));
  request.on('end', () => {
    recorded.push({ headers: request.headers, body });
    response.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' }).end('{}');
  });
});
let endpoint = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const LONG_LIVED: AwsCredentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };
const TEMPORARY: AwsCredentials = { ...LONG_LIVED, sessionToken: 'IQoJb3JpZ2luX2VjEJr//////////wEaCXVzLWVhc3QtMSJHMEUCIQD+token==' };

/** The date an amz-date header names. */
function dateOf(stamp: string): Date {
  return new Date(`${stamp.slice(0, 4)}-${stamp.slice(4, 6)}-${stamp.slice(6, 8)}T${stamp.slice(9, 11)}:${stamp.slice(11, 13)}:${stamp.slice(13, 15)}Z`);
}

describe('SigV4 signing', () => {
  it.each([
    ['long-lived credentials, a GetItem', LONG_LIVED, 'us-east-1', new GetItemCommand({ TableName: 't', Key: { pk: { S: 'a' } }, ConsistentRead: true })],
    ['temporary credentials (a Lambda role), a Query', TEMPORARY, 'eu-west-3', new QueryCommand({ TableName: 'easel-workspace', KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': { S: 'WS#1' } } })],
    ['non-ASCII and spaces in the body, a PutItem', TEMPORARY, 'ap-southeast-2', new PutItemCommand({ TableName: 't', Item: { pk: { S: 'Café — 日本  x' }, n: { N: '1.5' } } })],
  ])('signs as the SDK does: %s', async (_case, credentials, region, command) => {
    // Prepare
    recorded.length = 0;
    const client = new DynamoDBClient({ region, endpoint, credentials, maxAttempts: 1 });

    // Act
    await client.send(command as GetItemCommand);
    client.destroy();
    const [sent] = recorded;
    const authorization = String(sent!.headers.authorization);
    const signedNames = /SignedHeaders=([^,]+)/.exec(authorization)![1]!.split(';');
    const headers = Object.fromEntries(signedNames.filter((name) => !['host', 'x-amz-date', 'x-amz-security-token'].includes(name)).map((name) => [name, String(sent!.headers[name])]));
    const ours = sign({ method: 'POST', host: String(sent!.headers.host), path: '/', headers, body: sent!.body }, credentials, { region, service: 'dynamodb' }, dateOf(String(sent!.headers['x-amz-date'])));

    // Assess
    expect(signedNames).toContain('x-amz-target');
    expect(ours.authorization).toBe(authorization);
    expect(ours['x-amz-security-token']).toBe(sent!.headers['x-amz-security-token']);
  });

  it('dates requests in the basic ISO format, to the second', () => {
    expect(amzDate(new Date('2026-11-23T19:34:22.123Z'))).toBe('20261123T193422Z');
  });

  it('gives a different signature for another body, date or secret', () => {
    // Prepare
    const now = new Date('2026-11-23T19:34:22Z');
    const scope = { region: 'us-east-1', service: 'dynamodb' };
    const request = { method: 'POST', host: 'h', path: '/', headers: { 'x-amz-target': 't' }, body: '{}' };

    // Act
    const base = sign(request, LONG_LIVED, scope, now).authorization;

    // Assess
    expect(sign({ ...request, body: '{ }' }, LONG_LIVED, scope, now).authorization).not.toBe(base);
    expect(sign(request, LONG_LIVED, scope, new Date(now.getTime() + 1000)).authorization).not.toBe(base);
    expect(sign(request, { ...LONG_LIVED, secretAccessKey: 'other' }, scope, now).authorization).not.toBe(base);
  });
});
