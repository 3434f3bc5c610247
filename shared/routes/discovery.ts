/** The rows of functions/discovery/: the machine-readable descriptions of the API. */
import * as endpoint from '#shared/routes/endpoints.ts';
import { defineRow, DISCOVERY } from '#shared/routes/row.ts';

export const getOpenApi = /* @__PURE__ */ defineRow(() => ({
  ...endpoint.getOpenApi,
  ...DISCOVERY,
  handler: 'functions/discovery/get-openapi.ts',
  prerendered: true,
}));

export const getLlms = /* @__PURE__ */ defineRow(() => ({
  ...endpoint.getLlms,
  ...DISCOVERY,
  handler: 'functions/discovery/get-llms.ts',
  prerendered: true,
}));

export const getLlmsFull = /* @__PURE__ */ defineRow(() => ({
  ...endpoint.getLlmsFull,
  ...DISCOVERY,
  handler: 'functions/discovery/get-llms-full.ts',
  prerendered: true,
}));
