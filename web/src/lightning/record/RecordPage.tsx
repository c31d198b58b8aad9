/**
 * A record's page (/lightning/r/{objectApiName}/{recordId}/view): the record UI (getRecordUi, layout type
 * Full and Compact, mode View) shown as the record's name, its highlights (the compact layout's fields), and the
 * Full layout's sections, each a heading and its fields as label and display value (a collapsible section
 * collapses, and stays so for the user: the layout user state), then its related lists (loaded apart); under the
 * record's name, the record's actions as the actions API offers them to the user (getRecordActions, the Page
 * section: a user who may not delete the record gets no Delete): Edit, Delete, Clone and Change Owner (in a
 * dialog, loaded apart) as buttons, and the quick actions in a "More actions" menu, each run in a dialog (loaded apart) whose outcome the page then says
 * and shows. Opening the page makes the record
 * one of the user's Recently Viewed (list/recent.ts). A record that does not exist, or
 * that the user may not see (the API answers both alike), is said so.
 */
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { getRecordActionsQuery, getRecordUiQuery } from '../../../../generated/queries';
import { useNoteRecordViewed } from '../list/recent';
import { useLookupNames } from './lookup-names';
import type { ApiClient } from '../../../../client/index';
import { useApiClient } from '../../api-client';
import { PageLink } from '../../location';
import { recordName } from '../fields';
import { cloneHref, editHref, objectHomeHref, type Route } from '../routes';
import { LoadError, Loading, Message, RecordNotFound, isUnknownRecord } from '../states';
import { useCollapsedSections } from './collapsed-sections';
import { compactLayoutOf, highlightsOf, recordPageOf, sectionsOf } from './layout';
import { Highlights } from './Highlights';
import { ActionsMenu } from './ActionsMenu';
import { DeleteDialog } from './DeleteDialog';
import { recordActionsOf, type QuickActionChoice } from './record-actions';
import { RecordSection } from './RecordSection';

type RecordRoute = Extract<Route, { kind: 'record' }>;

// Loaded apart: the record's first paint never waits for its related lists' code.
const RelatedLists = lazy(() => import('../related/RelatedLists').then((module) => ({ default: module.RelatedLists })));
// Loaded apart too, when a quick action is first chosen.
const QuickActionDialog = lazy(() =>
  import('./QuickActionDialog').then((module) => ({ default: module.QuickActionDialog })),
);
const ChangeOwnerDialog = lazy(() =>
  import('./ChangeOwnerDialog').then((module) => ({ default: module.ChangeOwnerDialog })),
);

/** The record page's layouts and record: the Full layout for the sections, the Compact one for the highlights. */
export function recordUiQuery(api: ApiClient, recordId: string) {
  return getRecordUiQuery(api, {
    path: { recordIds: recordId },
    query: { layoutTypes: 'Full,Compact', modes: 'View' },
  });
}

export function RecordPage({ route }: { route: RecordRoute }) {
  const api = useApiClient();
  const { objectApiName, recordId } = route;
  const recordUi = useQuery(recordUiQuery(api, recordId));
  const shown = recordUi.data ? recordPageOf(recordUi.data, recordId) : undefined;
  useNoteRecordViewed(recordId, shown?.record.apiName);
  const objectInfo = shown && recordUi.data?.objectInfos[shown.record.apiName];
  const compact = shown && recordUi.data ? compactLayoutOf(recordUi.data, shown.record) : undefined;
  const names = useLookupNames(recordId, shown?.layout, objectInfo, compact);
  const sectionStates = useCollapsedSections(
    shown?.record.apiName ?? objectApiName,
    shown?.record.recordTypeId,
    shown?.layout,
    recordUi.data?.layoutUserStates,
  );
  // Asked once the record is shown: an id that opens no record has no actions to ask for.
  const actions = useQuery({
    ...getRecordActionsQuery(api, {
      path: { recordIds: recordId },
      query: { sections: 'Page', formFactor: 'Large' },
    }),
    enabled: shown !== undefined,
  });
  const { buttons: offered, quickActions } = recordActionsOf(actions.data?.actions[recordId]?.actions);
  const [deleting, setDeleting] = useState(false);
  const [changingOwner, setChangingOwner] = useState(false);
  const [running, setRunning] = useState<QuickActionChoice | null>(null);
  /** What the last quick action said it did. */
  const [notice, setNotice] = useState('');
  if (recordUi.isPending) return <Loading what="the record" />;
  if (recordUi.isError && isUnknownRecord(recordUi.error)) return <RecordNotFound objectApiName={objectApiName} />;
  if (recordUi.isError) return <LoadError what="The record" error={recordUi.error} />;
  if (!shown)
    return (
      <Message heading="Record not found" tone="error">
        This record doesn’t exist, or you don’t have access to it.
      </Message>
    );
  const { record, objectLabel, layout } = shown;
  const sections = layout ? sectionsOf(layout, record, names, objectInfo) : [];
  return (
    <article className="bo-record" aria-labelledby="bo-record-name">
      <header className="bo-record__header">
        <p className="bo-record__object">
          <PageLink href={objectHomeHref(record.apiName)}>{objectLabel}</PageLink>
        </p>
        <h1 id="bo-record-name" className="bo-record__name">
          {recordName(record)}
        </h1>
        {(offered.size > 0 || quickActions.length > 0) && (
          <div className="bo-record__actions">
            {offered.has('Edit') && (
              <PageLink className="bo-button" href={editHref(objectApiName, recordId)}>
                Edit
              </PageLink>
            )}
            {offered.has('Delete') && (
              <button type="button" className="bo-button" aria-haspopup="dialog" onClick={() => setDeleting(true)}>
                Delete
              </button>
            )}
            {offered.has('Clone') && (
              <PageLink className="bo-button" href={cloneHref(objectApiName, recordId)}>
                Clone
              </PageLink>
            )}
            {offered.has('ChangeOwner') && objectInfo?.fields.OwnerId && (
              <button
                type="button"
                className="bo-button"
                aria-haspopup="dialog"
                onClick={() => {
                  setNotice('');
                  setChangingOwner(true);
                }}
              >
                Change Owner
              </button>
            )}
            {quickActions.length > 0 && (
              <ActionsMenu
                actions={quickActions}
                onChoose={(action) => {
                  setNotice('');
                  setRunning(action);
                }}
              />
            )}
          </div>
        )}
        <p className="bo-record__notice" role="status">
          {notice}
        </p>
      </header>
      {compact && <Highlights fields={highlightsOf(compact, record, names, objectInfo)} />}
      {sectionStates.failed && (
        <p className="bo-state bo-state--error" role="alert">
          The section could not be kept collapsed or expanded for your next visit.
        </p>
      )}
      {deleting && (
        <DeleteDialog
          objectApiName={objectApiName}
          objectLabel={objectLabel}
          recordId={recordId}
          recordName={recordName(record)}
          onClose={() => setDeleting(false)}
        />
      )}
      {changingOwner && objectInfo?.fields.OwnerId && (
        <Suspense fallback={<Loading what="Change Owner" />}>
          <ChangeOwnerDialog
            objectLabel={objectLabel}
            record={record}
            ownerField={objectInfo.fields.OwnerId}
            onClose={() => setChangingOwner(false)}
            onDone={(message) => {
              setChangingOwner(false);
              setNotice(message);
            }}
          />
        </Suspense>
      )}
      {running && (
        <Suspense fallback={<Loading what="the action" />}>
          <QuickActionDialog
            action={running}
            recordId={recordId}
            onClose={() => setRunning(null)}
            onDone={(message) => {
              setRunning(null);
              setNotice(message);
            }}
          />
        </Suspense>
      )}
      {sections.length === 0 ? (
        <p className="bo-state">This record’s layout has no sections.</p>
      ) : (
        sections.map((section) => (
          <RecordSection
            key={section.key}
            section={section}
            collapsed={sectionStates.collapsed.get(section.key)}
            onToggle={() => sectionStates.toggle(section.key)}
          />
        ))
      )}
      <Suspense fallback={<Loading what="the related lists" />}>
        <RelatedLists objectApiName={record.apiName} recordId={record.id} recordTypeId={record.recordTypeId} />
      </Suspense>
    </article>
  );
}
