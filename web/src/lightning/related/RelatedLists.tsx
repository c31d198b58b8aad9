/**
 * A record's related lists on its page, below its sections: the related lists of the object's layout
 * (getRelatedListsInfo), each a card with its label and count (getRelatedListsCount, "10+" beyond the count
 * asked), its first records (getRelatedListRecordsBatch), each a link to its record's page with the related
 * list's other columns (getRelatedListInfoBatch), and "View All", which opens the related list's own page. The
 * module is loaded apart from the record page, and asks only once the record is shown: the record's first paint
 * never waits for its related lists.
 */
import { useQuery } from '@tanstack/react-query';
import {
  getRelatedListInfoBatchQuery,
  getRelatedListRecordsBatchQuery,
  getRelatedListsCountQuery,
  getRelatedListsInfoQuery,
} from '../../../../generated/queries';
import { useApiClient } from '../../api-client';
import { PageLink } from '../../location';
import { recordHref, relatedListHref } from '../routes';
import { LoadError, Loading } from '../states';
import {
  batchItem,
  countText,
  relatedRecordOf,
  RELATED_COUNT_MAX,
  RELATED_ROWS,
  shownRelatedLists,
} from './related-lists';

/**
 * A count is kept as long as the related records (30 s), not the 30 days the API lets a client keep it: a card
 * whose count disagreed with its rows would be wrong.
 */
const COUNT_STALE_TIME = 30_000;

export function RelatedLists({
  objectApiName,
  recordId,
  recordTypeId,
}: {
  objectApiName: string;
  recordId: string;
  recordTypeId?: string | null;
}) {
  const api = useApiClient();
  const summaries = useQuery(
    getRelatedListsInfoQuery(api, {
      path: { parentObjectApiName: objectApiName },
      query: recordTypeId ? { recordTypeId } : {},
    }),
  );
  const lists = summaries.data ? shownRelatedLists(summaries.data) : [];
  const relatedListNames = lists.map((list) => list.relatedListId).join(',');
  const enabled = lists.length > 0;
  const infos = useQuery({
    ...getRelatedListInfoBatchQuery(api, { path: { parentObjectApiName: objectApiName, relatedListNames } }),
    enabled,
  });
  const counts = useQuery({
    ...getRelatedListsCountQuery(api, {
      path: { parentRecordId: recordId, relatedListNames },
      query: { maxCount: RELATED_COUNT_MAX },
    }),
    enabled,
    staleTime: COUNT_STALE_TIME,
  });
  const records = useQuery({
    ...getRelatedListRecordsBatchQuery(api, {
      path: { parentRecordId: recordId },
      body: {
        relatedListParameters: lists.map((list) => ({ relatedListId: list.relatedListId, pageSize: RELATED_ROWS })),
      },
    }),
    enabled,
  });

  let content;
  if (summaries.isPending) content = <Loading what="the related lists" />;
  else if (summaries.isError) content = <LoadError what="The related lists" error={summaries.error} />;
  else if (lists.length === 0) content = <p className="bo-state">This record has no related lists.</p>;
  else
    content = lists.map((list, index) => {
      const info = batchItem(infos.data?.results, index);
      const count = batchItem(counts.data?.results, index);
      const page = batchItem(records.data?.results, index);
      const headingId = `bo-related-${list.relatedListId}`;
      const columns = info && 'ok' in info ? info.ok.displayColumns : [];
      return (
        <section key={list.relatedListId} className="bo-related-list" aria-labelledby={headingId}>
          <h3 id={headingId} className="bo-related-list__heading">
            {list.label}
            {count && 'ok' in count && <span className="bo-related-list__count"> ({countText(count.ok)})</span>}
          </h3>
          {records.isPending && <Loading what={`the ${list.label}`} />}
          {records.isError && <LoadError what={`The ${list.label}`} error={records.error} />}
          {page && 'error' in page && (
            <div className="bo-state bo-state--error" role="alert">
              <p>
                The {list.label} could not be loaded. {page.error}
              </p>
            </div>
          )}
          {page && 'ok' in page && page.ok.records.length === 0 && <p className="bo-state">No items to display.</p>}
          {page && 'ok' in page && page.ok.records.length > 0 && (
            <>
              <ul className="bo-related-list__records">
                {page.ok.records.map((record) => {
                  const shown = relatedRecordOf(record, columns);
                  return (
                    <li key={record.id} className="bo-related-list__record">
                      <PageLink href={recordHref(record.apiName, record.id)}>{shown.title}</PageLink>
                      {shown.fields.length > 0 && (
                        <dl className="bo-related-list__fields">
                          {shown.fields.map((field) => (
                            <div key={field.label} className="bo-related-list__field">
                              <dt>{field.label}:</dt>
                              <dd>{field.text || <span className="visually-hidden">No value</span>}</dd>
                            </div>
                          ))}
                        </dl>
                      )}
                    </li>
                  );
                })}
              </ul>
              <p className="bo-related-list__footer">
                <PageLink href={relatedListHref(objectApiName, recordId, list.relatedListId)}>
                  View All<span className="visually-hidden"> {list.label}</span>
                </PageLink>
              </p>
            </>
          )}
        </section>
      );
    });

  return (
    <section className="bo-related" aria-labelledby="bo-related-heading">
      <h2 id="bo-related-heading" className="bo-related__heading">
        Related
      </h2>
      {content}
    </section>
  );
}
