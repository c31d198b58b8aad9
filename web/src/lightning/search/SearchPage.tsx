/**
 * The search results (/lightning/search?searchTerm=…): getSearchResults across the objects of the default search
 * configuration the user may read, one group per object with matches, headed by the object's plural label
 * and its count, in the columns the answer gives (labelled from getObjectInfos), each record's name a link to
 * its page and the matched words marked. A term the platform would refuse is said so, and not asked.
 */
import { useQuery } from '@tanstack/react-query';
import type { components } from '../../../../client/index';
import { getObjectInfosQuery, getSearchResultsQuery } from '../../../../generated/queries';
import { useApiClient } from '../../api-client';
import { PageLink } from '../../location';
import { recordHref } from '../routes';
import { LoadError, Loading, Message } from '../states';
import { objectsWithMatches, searchGroups, termProblem, type SearchGroup, type TextPart } from './search-results';

type ObjectInfo = components['schemas']['ObjectInfoRepresentation'];

export function SearchPage({ searchTerm }: { searchTerm: string }) {
  const term = searchTerm.trim();
  const problem = termProblem(term);
  return (
    <section className="bo-search-results" aria-labelledby="bo-search-heading">
      <h1 id="bo-search-heading" className="bo-list__heading">
        {problem ? 'Search' : `Search results for “${term}”`}
      </h1>
      {problem ? <Message>{problem}</Message> : <SearchResults key={term} term={term} />}
    </section>
  );
}

function SearchResults({ term }: { term: string }) {
  const api = useApiClient();
  const answer = useQuery(getSearchResultsQuery(api, { query: { q: term }, body: {} }));
  const objects = answer.data ? objectsWithMatches(answer.data) : [];
  const infos = useQuery({
    ...getObjectInfosQuery(api, { path: { objectApiNames: objects.join(',') } }),
    enabled: objects.length > 0,
  });
  if (answer.isPending || (objects.length > 0 && infos.isPending)) return <Loading what="the search results" />;
  if (answer.isError) return <LoadError what="The search results" error={answer.error} />;
  // Without the objects' metadata the results still show, under API names.
  const byName = new Map<string, ObjectInfo>();
  for (const item of infos.data?.results ?? []) {
    if (item.statusCode === 200 && 'apiName' in item.result) byName.set(item.result.apiName, item.result);
  }
  const groups = searchGroups(answer.data, byName);
  if (groups.length === 0) return <Message>No results for “{term}”.</Message>;
  return (
    <>
      <p className="bo-list__summary" role="status">
        {groups.map((group) => `${group.label} (${group.count})`).join(' · ')}
      </p>
      {groups.map((group) => (
        <ResultGroup key={group.objectApiName} group={group} />
      ))}
    </>
  );
}

function ResultGroup({ group }: { group: SearchGroup }) {
  const headingId = `bo-search-${group.objectApiName}`;
  return (
    <section className="bo-search-results__group" aria-labelledby={headingId}>
      <h2 id={headingId} className="bo-search-results__heading">
        {group.label} ({group.count})
      </h2>
      {group.error && <Message tone="error">{group.error}</Message>}
      {group.rows.length > 0 && (
        <div className="bo-table-scroll">
          <table className="bo-table" aria-labelledby={headingId}>
            <thead>
              <tr>
                {group.columns.map((column) => (
                  <th key={column.fieldApiName} scope="col">
                    {column.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {group.rows.map((row) => (
                <tr key={row.recordId}>
                  {row.cells.map((parts, index) =>
                    index === 0 ? (
                      <th key={group.columns[index].fieldApiName} scope="row">
                        <PageLink href={recordHref(group.objectApiName, row.recordId)}>
                          {parts.length > 0 ? <Marked parts={parts} /> : row.recordId}
                        </PageLink>
                      </th>
                    ) : (
                      <td key={group.columns[index].fieldApiName}>
                        <Marked parts={parts} />
                      </td>
                    ),
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** A value with its matched words marked. */
function Marked({ parts }: { parts: TextPart[] }) {
  return parts.map((part, index) => (part.marked ? <mark key={index}>{part.text}</mark> : part.text));
}
