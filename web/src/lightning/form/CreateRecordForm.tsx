/**
 * The form that creates a record from a record defaults answer (getRecordCreateDefaults for a new record,
 * getRecordCloneDefaults for a copy): its layout in Create (or Clone) mode, the values the new record starts
 * with, its object info, and the picklists of its record type. Save creates the record with createRecord,
 * with the fields the page adds to every save, then opens its page. A duplicate rule's warning and the errors
 * of a failed save are said as the record form says them.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { components } from '../../../../client/index';
import { createRecordMutation, getPicklistValuesByRecordTypeQuery } from '../../../../generated/queries';
import { useApiClient } from '../../api-client';
import { navigate, PageLink } from '../../location';
import { objectHomeHref, recordHref } from '../routes';
import { LoadError, Loading, Message } from '../states';
import { fieldsOf, formSectionsOf, saveErrorsOf, type FormSection, type InputFields } from './form-model';
import { RecordForm } from './RecordForm';

type RecordDefaults = components['schemas']['RecordDefaultsRepresentation'];
type ObjectInfo = components['schemas']['ObjectInfoRepresentation'];

const NO_NAMES: ReadonlyMap<string, string> = new Map();

export function CreateRecordForm({
  objectApiName,
  defaults,
  heading,
  cancelHref,
  fieldsOfSave,
}: {
  objectApiName: string;
  defaults: RecordDefaults;
  /** The form's heading, from the object's info: "New Contact Us". */
  heading: (objectInfo: ObjectInfo) => string;
  cancelHref: string;
  /** The fields every save sends besides those filled in (a chosen record type, a copy's lookups). */
  fieldsOfSave?: (sections: FormSection[], objectInfo: ObjectInfo) => InputFields;
}) {
  const api = useApiClient();
  const queryClient = useQueryClient();
  const recordTypeId = defaults.record.recordTypeId ?? undefined;
  const picklists = useQuery({
    ...getPicklistValuesByRecordTypeQuery(api, { path: { objectApiName, recordTypeId: recordTypeId ?? '' } }),
    enabled: recordTypeId !== undefined,
  });
  const create = useMutation(createRecordMutation(api, queryClient));

  const objectInfo = defaults.objectInfos[objectApiName];
  const { layout, record } = defaults;
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
          fields: { ...fieldsOfSave?.(sections, objectInfo), ...fields },
          ...(allowSaveOnDuplicate && { allowSaveOnDuplicate }),
        },
      },
      { onSuccess: (created) => navigate(recordHref(objectApiName, created.id)) },
    );
  return (
    <RecordForm
      mode="create"
      objectApiName={objectInfo.apiName}
      heading={heading(objectInfo)}
      objectLink={<PageLink href={objectHomeHref(objectApiName)}>{objectInfo.labelPlural}</PageLink>}
      sections={sections}
      recordFields={record.fields}
      names={NO_NAMES}
      picklists={picklists.data}
      cancelHref={cancelHref}
      saving={create.isPending}
      errors={create.isError ? saveErrorsOf(create.error, fieldsOf(sections)) : null}
      failedAt={create.isError ? create.submittedAt : 0}
      onSave={save}
    />
  );
}
