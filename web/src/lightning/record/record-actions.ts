/**
 * A record's actions as its page shows them (getRecordActions, the Page section): the standard buttons the page
 * draws itself (Edit, Delete, Clone, Change Owner), and the quick actions the record may run, for the "More actions" menu.
 * Only what the API offered is shown; an action it did not list (the user may not do it) is never added.
 */
import type { components } from '../../../../client/index';

type PlatformAction = components['schemas']['PlatformActionRepresentation'];

/** The standard buttons the record page draws, in its order. */
export const RECORD_BUTTONS = ['Edit', 'Delete', 'Clone', 'ChangeOwner'] as const;
export type RecordButton = (typeof RECORD_BUTTONS)[number];

/** The kinds of quick action the page can run: those that create a record (POST) and those that update it (PATCH). */
const RUNNABLE_SUBTYPES = new Set(['Create', 'LogACall', 'Update']);

/** A quick action of the menu: what the dialog needs to draw and run it. */
export interface QuickActionChoice {
  apiName: string;
  label: string;
  /** Update for an action that changes the record; otherwise it creates a record (Create, LogACall). */
  subtype: string;
  /** The object whose record the action creates or updates. */
  targetObject: string;
}

export interface RecordActions {
  buttons: ReadonlySet<RecordButton>;
  quickActions: QuickActionChoice[];
}

/** The page's buttons and menu from the actions the API offered for the record, each once, in the API's order. */
export function recordActionsOf(actions: readonly PlatformAction[] | undefined): RecordActions {
  const buttons = new Set<RecordButton>();
  const quickActions: QuickActionChoice[] = [];
  const seen = new Set<string>();
  for (const action of actions ?? []) {
    if (seen.has(action.apiName)) continue;
    seen.add(action.apiName);
    const button = RECORD_BUTTONS.find((name) => name === action.apiName);
    if (action.type === 'StandardButton' && button) buttons.add(button);
    else if (
      action.type === 'QuickAction' &&
      action.subtype &&
      RUNNABLE_SUBTYPES.has(action.subtype) &&
      action.targetObject
    )
      quickActions.push({
        apiName: action.apiName,
        label: action.label,
        subtype: action.subtype,
        targetObject: action.targetObject,
      });
  }
  return { buttons, quickActions };
}

/** Whether a quick action updates the record it runs on (PATCH) rather than creating one (POST). */
export function updatesRecord(action: Pick<QuickActionChoice, 'subtype'>): boolean {
  return action.subtype === 'Update';
}
