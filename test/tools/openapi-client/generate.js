// Reads an OpenAPI document on stdin, writes its TypeScript types to stdout.
import { text } from 'node:stream/consumers';
import { generateTypes } from './index.js';

process.stdout.write(await generateTypes(JSON.parse(await text(process.stdin))));
