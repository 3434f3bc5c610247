import { describe, expect, it } from 'vitest';
import { OPERATION_DOCS } from '#shared/docs/operations.ts';
import { ROUTES, ROUTE_LIST } from '#shared/routes.ts';

describe('operation docs', () => {
  it('documents exactly the operations of the route table', () => {
    // Act
    const documented = Object.keys(OPERATION_DOCS).sort();

    // Assess
    expect(documented).toEqual(Object.keys(ROUTES).sort());
  });

  it.each(ROUTE_LIST.map((row) => [row.operationId, row] as const))('gives %s the lowest 2xx status it documents as its success status', (operationId, row) => {
    // Act
    const documented = Object.keys(OPERATION_DOCS[operationId].responses)
      .map(Number)
      .filter((status) => status >= 200 && status < 300);

    // Assess
    expect(row.status ?? 200).toBe(Math.min(...documented));
  });
});
