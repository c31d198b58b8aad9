/**
 * Which collapsible sections of a record page are collapsed: the caller's layout user state, as the record UI
 * gives it (layoutUserStates), and what they change on the page, which is saved at once (updateLayoutUserState,
 * for the layout's object, record type, layout type Full and mode View), so that the next page of a record of
 * that object and record type opens with the same sections collapsed, on any device. The page shows the change
 * before the answer; a save that fails puts the section back as it was saved, and says so.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { components } from '../../../../client/index';
import { MASTER_RECORD_TYPE_ID } from '../../../../common/platform';
import { updateLayoutUserStateMutation } from '../../../../generated/queries';
import { useApiClient } from '../../api-client';
import { collapsedSectionsOf } from './layout';

type RecordUi = components['schemas']['RecordUiRepresentation'];
type Layout = components['schemas']['RecordLayoutRepresentation'];

export interface CollapsedSections {
  /** By section id: whether it is collapsed; a section that does not collapse is not in it. */
  collapsed: Map<string, boolean>;
  toggle: (sectionId: string) => void;
  /** Set when the last change could not be saved. */
  failed: boolean;
}

export function useCollapsedSections(
  objectApiName: string,
  recordTypeId: string | null | undefined,
  layout: Layout | undefined,
  userStates: RecordUi['layoutUserStates'] | undefined,
): CollapsedSections {
  const api = useApiClient();
  const queryClient = useQueryClient();
  // The user's changes not yet in a record UI answer, by section id.
  const [changed, setChanged] = useState<ReadonlyMap<string, boolean>>(new Map());
  const save = useMutation(updateLayoutUserStateMutation(api, queryClient));
  const saved = layout ? collapsedSectionsOf(layout, userStates) : new Map<string, boolean>();
  const collapsed = new Map([...saved].map(([id, state]) => [id, changed.get(id) ?? state]));

  const toggle = (sectionId: string) => {
    const now = !collapsed.get(sectionId);
    setChanged((before) => new Map(before).set(sectionId, now));
    save.mutate(
      {
        path: { objectApiName },
        query: { layoutType: 'Full', mode: 'View', recordTypeId: recordTypeId ?? MASTER_RECORD_TYPE_ID },
        body: { sectionUserStates: { [sectionId]: { collapsed: now } } },
      },
      {
        onError: () =>
          setChanged((before) => {
            const after = new Map(before);
            after.delete(sectionId);
            return after;
          }),
      },
    );
  };
  return { collapsed, toggle, failed: save.isError };
}
