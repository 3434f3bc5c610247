/** The rows of functions/site/: the editor's page, its files and the site pages. */
import * as endpoint from '#shared/routes/endpoints.ts';
import { defineRow, DISCOVERY } from '#shared/routes/row.ts';
import { EditorAssetParams } from '#shared/schemas/editor.ts';

export const getHome = /* @__PURE__ */ defineRow(() => ({
  ...endpoint.getHome,
  ...DISCOVERY,
  handler: 'functions/site/get-home.ts',
  editorAssets: true,
  prerendered: true,
}));

export const getEditorAsset = /* @__PURE__ */ defineRow(() => ({
  ...endpoint.getEditorAsset,
  ...DISCOVERY,
  handler: 'functions/site/get-editor-asset.ts',
  editorAssets: true,
  // Part of the page, not the API.
  listed: false,
  params: EditorAssetParams,
  errors: [400, 404],
}));

export const getDocs = /* @__PURE__ */ defineRow(() => ({
  ...endpoint.getDocs,
  ...DISCOVERY,
  handler: 'functions/site/get-docs.ts',
  prerendered: true,
}));

export const getErrorDocs = /* @__PURE__ */ defineRow(() => ({
  ...endpoint.getErrorDocs,
  ...DISCOVERY,
  handler: 'functions/site/get-error-docs.ts',
  prerendered: true,
}));
