/**
 * The editor at `/`: wires the panels to one editor state. Composition runs in the browser; the
 * API captures pages, looks up tweets, proxies their media, converts exports and stores them.
 */
import './editor.css';
import { Annotator } from './tools/annotate-tool.ts';
import { setupAnnotateToolbar } from './tools/annotate-toolbar.ts';
import { Api } from './io/api.ts';
import { byId, clearStaleProblems } from './dom.ts';
import { editorCommands } from './actions/editor-commands.ts';
import { Editor } from './editor.ts';
import { setupComposePanel } from './panels/compose-panel.ts';
import { setupCropTool } from './tools/crop-tool.ts';
import { setupExportPanel } from './panels/export-panel.ts';
import { Account } from './io/account.ts';
import { setupAccountMenu } from './panels/account-menu.ts';
import { setupSavePanel } from './panels/save-panel.ts';
import { setupSignInDialog } from './panels/sign-in-dialog.ts';
import { setupRecentSources } from './panels/recent-sources.ts';
import { setupRedactPanel } from './panels/redact-panel.ts';
import { setupReleasesPanel } from './panels/releases-panel.ts';
import { setupShortcuts } from './actions/shortcuts.ts';
import { setupSourcePanel } from './panels/source-panel.ts';
import { setupZoom } from './tools/zoom-control.ts';

const api = Api.fromDocument(document);
byId('api-base', HTMLSpanElement).textContent = api.describe();
const editor = new Editor(api);
const annotator = new Annotator(editor);
const zoom = setupZoom(editor, annotator);
const list = byId('annotate-shortcuts', HTMLDetailsElement);
// The table's first rows: the crop tool and the export panel add theirs after.
editor.commands.register(
  ...editorCommands({
    hasSource: () => editor.source !== undefined,
    tool: () => editor.tool,
    setTool: (tool) => editor.setTool(tool),
    busy: () => annotator.busy(),
    canUndo: () => editor.history.undoSteps > 0,
    canRedo: () => editor.history.redoSteps > 0,
    undo: () => {
      annotator.commitText();
      editor.undo();
    },
    redo: () => {
      annotator.commitText();
      editor.redo();
    },
    hasSelection: () => annotator.selection() !== undefined,
    selectionIsText: () => annotator.selection()?.kind === 'text',
    hasAnnotations: () => editor.edits.annotations.length > 0,
    canEscape: () => annotator.canEscape(),
    escape: () => annotator.escape(),
    deleteSelected: () => annotator.deleteSelected(),
    duplicateSelected: () => annotator.duplicateSelected(),
    nudge: (dx, dy) => annotator.nudge(dx, dy),
    selectAdjacent: (step) => annotator.selectAdjacent(step),
    editSelected: () => annotator.editSelected(),
    shortcutsOpen: () => list.open,
    setShortcutsOpen: (open) => {
      list.open = open;
    },
    zoom,
  }),
);
setupSourcePanel(editor);
setupRecentSources(editor);
const redaction = setupRedactPanel(editor, annotator);
setupComposePanel(editor);
const account = new Account(api);
const signIn = setupSignInDialog(account);
setupAccountMenu(account, signIn);
setupReleasesPanel(editor, account, signIn);
setupSavePanel(editor, account, setupExportPanel(editor), signIn, redaction.beforeSave);
setupCropTool(editor);
setupAnnotateToolbar(editor, annotator);
setupShortcuts(editor.commands);
clearStaleProblems();
document.documentElement.dataset.ready = 'true';
// A session already in the browser is recognised on open; an anonymous visit gets `signedIn: false`, not a 401.
void account.refresh();
