/**
 * The editor at `/`: wires the panels to one editor state. Composition runs in the browser; the
 * API captures pages, looks up tweets, proxies their media, converts exports and stores them.
 */
import './editor.css';
import { Annotator } from './annotate-tool.ts';
import { setupAnnotateToolbar } from './annotate-toolbar.ts';
import { Api } from './api.ts';
import { byId } from './dom.ts';
import { Editor } from './editor.ts';
import { setupComposePanel } from './compose-panel.ts';
import { setupCropTool } from './crop-tool.ts';
import { setupExportPanel } from './export-panel.ts';
import { setupShortcuts } from './shortcuts.ts';
import { setupSourcePanel } from './source-panel.ts';

const api = Api.fromDocument(document);
byId('api-base', HTMLSpanElement).textContent = api.describe();
const editor = new Editor(api);
setupSourcePanel(editor);
setupComposePanel(editor);
setupExportPanel(editor);
setupCropTool(editor);
const annotator = new Annotator(editor);
setupAnnotateToolbar(editor, annotator);
setupShortcuts(editor, annotator);
document.documentElement.dataset.ready = 'true';
