/**
 * A record's page (/lightning/r/{objectApiName}/{recordId}/view): the record UI (getRecordUi, layout type
 * Full, mode View) shown as the layout's sections, each a heading and its fields as label and display value,
 * under the record's name, with the record's Edit and Delete where the actions API offers them to the user
 * (getRecordActions: a user who may not delete the record gets no Delete). A record that does not exist, or
 * that the user may not see (the API answers both alike), is said so.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { getRecordActionsQuery, getRecordUiQuery } from '../../../../generated/queries';
import { useLookupNames } from './lookup-names';
import { useApiClient } from '../../api-client';
import { PageLink } from '../../location';
import { recordName } from '../fields';
import { editHref, objectHomeHref, type Route } from '../routes';
import { LoadError, Loading, Message, RecordNotFound, isUnknownRecord } from '../states';
import { recordPageOf, sectionsOf } from './layout';
import { DeleteDialog } from './DeleteDialog';
import { RecordSection } from './RecordSection';

type RecordRoute = Extract<Route, { kind: 'record' }>;

export function RecordPage({ route }: { route: RecordRoute }) {
  const api = useApiClient();
  const { objectApiName, recordId } = route;
  const recordUi = useQuery(
    getRecordUiQuery(api, { path: { recordIds: recordId }, query: { layoutTypes: 'Full', modes: 'View' } }),
  );
  const shown = recordUi.data ? recordPageOf(recordUi.data, recordId) : undefined;
  const names = useLookupNames(recordId, shown?.layout, shown && recordUi.data?.objectInfos[shown.record.apiName]);
  // Asked once the record is shown: an id that opens no record has no actions to ask for.
  const actions = useQuery({
    ...getRecordActionsQuery(api, {
      path: { recordIds: recordId },
      query: { apiNames: 'Edit,Delete', formFactor: 'Large' },
    }),
    enabled: shown !== undefined,
  });
  const offered = new Set(actions.data?.actions[recordId]?.actions.map((action) => action.apiName));
  const [deleting, setDeleting] = useState(false);
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
  const sections = layout ? sectionsOf(layout, record, names, recordUi.data?.objectInfos[record.apiName]) : [];
  return (
    <article className="bo-record" aria-labelledby="bo-record-name">
      <header className="bo-record__header">
        <p className="bo-record__object">
          <PageLink href={objectHomeHref(record.apiName)}>{objectLabel}</PageLink>
        </p>
        <h1 id="bo-record-name" className="bo-record__name">
          {recordName(record)}
        </h1>
        {(offered.has('Edit') || offered.has('Delete')) && (
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
          </div>
        )}
      </header>
      {deleting && (
        <DeleteDialog
          objectApiName={objectApiName}
          objectLabel={objectLabel}
          recordId={recordId}
          recordName={recordName(record)}
          onClose={() => setDeleting(false)}
        />
      )}
      {sections.length === 0 ? (
        <p className="bo-state">This record’s layout has no sections.</p>
      ) : (
        sections.map((section) => <RecordSection key={section.key} section={section} />)
      )}
    </article>
  );
}
