/**
 * A record's edit form (/lightning/r/{objectApiName}/{recordId}/edit): the record UI in Edit mode (getRecordUi,
 * Full, Edit) and the picklists of the record's type (getPicklistValuesByRecordType). Save sends the fields
 * changed with updateRecord, and If-Unmodified-Since of the record's lastModifiedDate as read, so that a change
 * made by someone else since is not overwritten: that answers 412, said as a conflict with the choice to
 * reload. The record is read anew each time the form opens. The mutation makes the record's cached reads
 * stale; the record page then shows it as saved.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  getPicklistValuesByRecordTypeQuery,
  getRecordUiQuery,
  updateRecordMutation,
} from '../../../../generated/queries';
import { useApiClient } from '../../api-client';
import { navigate, PageLink } from '../../location';
import { recordName } from '../fields';
import { recordPageOf } from '../record/layout';
import { useLookupNames } from '../record/lookup-names';
import { objectHomeHref, recordHref, type Route } from '../routes';
import { LoadError, Loading, Message, RecordNotFound, isUnknownRecord } from '../states';
import { formSectionsOf, ifUnmodifiedSinceOf, saveErrorsOf, fieldsOf, type InputFields } from './form-model';
import { RecordForm } from './RecordForm';

type EditRoute = Extract<Route, { kind: 'edit' }>;

export function EditRecordPage({ route }: { route: EditRoute }) {
  const api = useApiClient();
  const queryClient = useQueryClient();
  const { objectApiName, recordId } = route;
  const recordUiQuery = getRecordUiQuery(api, {
    path: { recordIds: recordId },
    // The Edit layout leaves the record's name out when no one may set it (an auto-number): the heading needs it.
    query: { layoutTypes: 'Full', modes: 'Edit', optionalFields: `${objectApiName}.Name` },
  });
  // The form starts from the record as it is now, not from a copy kept since another visit: the save's
  // If-Unmodified-Since is its lastModifiedDate, and a stale copy would only end in a conflict.
  const recordUi = useQuery({ ...recordUiQuery, refetchOnMount: 'always' });
  const shown = recordUi.data ? recordPageOf(recordUi.data, recordId, 'Edit') : undefined;
  const objectInfo = shown && recordUi.data?.objectInfos[shown.record.apiName];
  const recordTypeId = shown?.record.recordTypeId ?? undefined;
  const picklists = useQuery({
    ...getPicklistValuesByRecordTypeQuery(api, { path: { objectApiName, recordTypeId: recordTypeId ?? '' } }),
    enabled: recordTypeId !== undefined,
  });
  const names = useLookupNames(recordId, shown?.layout, objectInfo);
  const update = useMutation(updateRecordMutation(api, queryClient));

  if (recordUi.isPending || !recordUi.isFetchedAfterMount) return <Loading what="the record" />;
  if (recordUi.isError && isUnknownRecord(recordUi.error)) return <RecordNotFound objectApiName={objectApiName} />;
  if (recordUi.isError) return <LoadError what="The record" error={recordUi.error} />;
  if (!shown || !objectInfo || !shown.layout)
    return (
      <Message heading="Record not found" tone="error">
        This record has no form you can edit.
      </Message>
    );
  if (recordTypeId !== undefined && picklists.isPending) return <Loading what="the picklist values" />;
  if (picklists.isError) return <LoadError what="The picklist values" error={picklists.error} />;

  const { record, objectLabel, layout } = shown;
  const sections = formSectionsOf(layout, objectInfo, 'edit');
  const viewHref = recordHref(objectApiName, recordId);
  const save = (fields: InputFields, allowSaveOnDuplicate: boolean) => {
    if (Object.keys(fields).length === 0) return navigate(viewHref);
    const since = ifUnmodifiedSinceOf(record);
    update.mutate(
      {
        path: { recordId },
        ...(since && { header: { 'If-Unmodified-Since': since } }),
        body: { fields, ...(allowSaveOnDuplicate && { allowSaveOnDuplicate }) },
      },
      { onSuccess: () => navigate(viewHref) },
    );
  };
  const reload = () => {
    update.reset();
    void queryClient.invalidateQueries({ queryKey: recordUiQuery.queryKey });
  };
  return (
    <RecordForm
      // A record read anew (after a conflict) is a new form, with the values as they now are.
      key={record.weakEtag}
      mode="edit"
      objectApiName={record.apiName}
      heading={`Edit ${recordName(record)}`}
      objectLink={<PageLink href={objectHomeHref(objectApiName)}>{objectLabel}</PageLink>}
      sections={sections}
      recordFields={record.fields}
      names={names}
      picklists={picklists.data}
      cancelHref={viewHref}
      saving={update.isPending}
      errors={update.isError ? saveErrorsOf(update.error, fieldsOf(sections)) : null}
      failedAt={update.isError ? update.submittedAt : 0}
      onSave={save}
      onReload={reload}
    />
  );
}
