/**
 * The form that creates a record (/lightning/o/{objectApiName}/new): the record defaults of the object
 * (getRecordCreateDefaults: its layout in Create mode, the values a new record starts with, its object info)
 * and the picklists of the new record's type. Save creates the record with createRecord, then opens its page.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  getPicklistValuesByRecordTypeQuery,
  getRecordCreateDefaultsQuery,
  createRecordMutation,
} from '../../../../generated/queries';
import { useApiClient } from '../../api-client';
import { navigate, PageLink } from '../../location';
import { objectHomeHref, recordHref, type Route } from '../routes';
import { LoadError, Loading, Message } from '../states';
import { fieldsOf, formSectionsOf, saveErrorsOf, type InputFields } from './form-model';
import { RecordForm } from './RecordForm';

type NewRoute = Extract<Route, { kind: 'new' }>;

const NO_NAMES: ReadonlyMap<string, string> = new Map();

export function NewRecordPage({ route }: { route: NewRoute }) {
  const api = useApiClient();
  const queryClient = useQueryClient();
  const { objectApiName, recordTypeId: chosenType } = route;
  const defaults = useQuery(
    getRecordCreateDefaultsQuery(api, {
      path: { objectApiName },
      query: { formFactor: 'Large', ...(chosenType && { recordTypeId: chosenType }) },
    }),
  );
  const recordTypeId = defaults.data?.record.recordTypeId ?? undefined;
  const picklists = useQuery({
    ...getPicklistValuesByRecordTypeQuery(api, { path: { objectApiName, recordTypeId: recordTypeId ?? '' } }),
    enabled: recordTypeId !== undefined,
  });
  const create = useMutation(createRecordMutation(api, queryClient));

  if (defaults.isPending) return <Loading what="the form" />;
  if (defaults.isError) return <LoadError what="The form" error={defaults.error} />;
  const objectInfo = defaults.data.objectInfos[objectApiName];
  const { layout, record } = defaults.data;
  if (!objectInfo || !layout)
    return (
      <Message heading="No form" tone="error">
        Records of this object cannot be created here.
      </Message>
    );
  if (recordTypeId !== undefined && picklists.isPending) return <Loading what="the picklist values" />;
  if (picklists.isError) return <LoadError what="The picklist values" error={picklists.error} />;

  const sections = formSectionsOf(layout, objectInfo, 'create');
  const save = (fields: InputFields, allowSaveOnDuplicate: boolean) =>
    create.mutate(
      {
        body: {
          apiName: objectApiName,
          fields: { ...fields, ...(chosenType && { RecordTypeId: chosenType }) },
          ...(allowSaveOnDuplicate && { allowSaveOnDuplicate }),
        },
      },
      { onSuccess: (created) => navigate(recordHref(objectApiName, created.id)) },
    );
  return (
    <RecordForm
      mode="create"
      objectApiName={objectInfo.apiName}
      heading={`New ${objectInfo.label}`}
      objectLink={<PageLink href={objectHomeHref(objectApiName)}>{objectInfo.labelPlural}</PageLink>}
      sections={sections}
      recordFields={record.fields}
      names={NO_NAMES}
      picklists={picklists.data}
      cancelHref={objectHomeHref(objectApiName)}
      saving={create.isPending}
      errors={create.isError ? saveErrorsOf(create.error, fieldsOf(sections)) : null}
      failedAt={create.isError ? create.submittedAt : 0}
      onSave={save}
    />
  );
}
