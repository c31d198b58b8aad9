/**
 * The form that creates a record (/lightning/o/{objectApiName}/new): the record defaults of the object
 * (getRecordCreateDefaults: its layout in Create mode, the values a new record starts with, its object info),
 * drawn by the create form (CreateRecordForm), which saves with createRecord, then opens the record's page.
 */
import { useQuery } from '@tanstack/react-query';
import { getRecordCreateDefaultsQuery } from '../../../../generated/queries';
import { useApiClient } from '../../api-client';
import { objectHomeHref, type Route } from '../routes';
import { LoadError, Loading } from '../states';
import { CreateRecordForm } from './CreateRecordForm';

type NewRoute = Extract<Route, { kind: 'new' }>;

export function NewRecordPage({ route }: { route: NewRoute }) {
  const api = useApiClient();
  const { objectApiName, recordTypeId: chosenType } = route;
  const defaults = useQuery(
    getRecordCreateDefaultsQuery(api, {
      path: { objectApiName },
      query: { formFactor: 'Large', ...(chosenType && { recordTypeId: chosenType }) },
    }),
  );
  if (defaults.isPending) return <Loading what="the form" />;
  if (defaults.isError) return <LoadError what="The form" error={defaults.error} />;
  return (
    <CreateRecordForm
      objectApiName={objectApiName}
      defaults={defaults.data}
      heading={(objectInfo) => `New ${objectInfo.label}`}
      cancelHref={objectHomeHref(objectApiName)}
      fieldsOfSave={chosenType ? () => ({ RecordTypeId: chosenType }) : undefined}
    />
  );
}
