/**
 * The form that clones a record (/lightning/r/{objectApiName}/{recordId}/clone): the clone defaults
 * (getRecordCloneDefaults: the create layout in Clone mode, the record's values a copy may be given, the object
 * info), drawn by the create form (CreateRecordForm). Save creates a new record with createRecord (the
 * original is never written) holding the values in the form and the copy's lookups and record type, which the
 * form shows but does not let the user change; then the new record's page opens.
 */
import { useQuery } from '@tanstack/react-query';
import { getRecordCloneDefaultsQuery } from '../../../../generated/queries';
import { useApiClient } from '../../api-client';
import { recordHref, type Route } from '../routes';
import { LoadError, Loading, RecordNotFound, isUnknownRecord } from '../states';
import { CreateRecordForm } from './CreateRecordForm';
import { cloneFieldsOf } from './form-model';

type CloneRoute = Extract<Route, { kind: 'clone' }>;

export function CloneRecordPage({ route }: { route: CloneRoute }) {
  const api = useApiClient();
  const { objectApiName, recordId } = route;
  // The copy starts from the record as it is now, not from a copy of the defaults kept since another visit.
  const defaults = useQuery({
    ...getRecordCloneDefaultsQuery(api, { path: { recordId }, query: { formFactor: 'Large' } }),
    refetchOnMount: 'always',
  });
  if (defaults.isPending || !defaults.isFetchedAfterMount) return <Loading what="the form" />;
  if (defaults.isError && isUnknownRecord(defaults.error)) return <RecordNotFound objectApiName={objectApiName} />;
  if (defaults.isError) return <LoadError what="The form" error={defaults.error} />;
  const { record } = defaults.data;
  return (
    <CreateRecordForm
      objectApiName={record.apiName}
      defaults={defaults.data}
      heading={(objectInfo) => `Clone ${objectInfo.label}`}
      cancelHref={recordHref(objectApiName, recordId)}
      fieldsOfSave={(sections, objectInfo) => cloneFieldsOf(sections, objectInfo, record)}
    />
  );
}
