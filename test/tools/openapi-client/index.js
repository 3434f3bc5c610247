/**
 * openapi-typescript on the TypeScript 5 beside it: it builds its output with the compiler API,
 * which the project's TypeScript 7 (a native binary) does not have. npm hoists openapi-typescript
 * next to the project's TypeScript, so its `import 'typescript'` is pointed here explicitly.
 */
import { registerHooks } from 'node:module';

const typescript5 = import.meta.resolve('typescript');
registerHooks({
  resolve(specifier, context, next) {
    if (specifier === 'typescript' && context.parentURL?.includes('/openapi-typescript/')) return { url: typescript5, shortCircuit: true };
    return next(specifier, context);
  },
});

const { default: openapiTS, astToString } = await import('openapi-typescript');

/** The TypeScript types of an OpenAPI document, as openapi-typescript writes them. */
export async function generateTypes(document) {
  return astToString(await openapiTS(document));
}
