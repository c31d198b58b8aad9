/**
 * The "More actions" menu button of a record page (the WAI-ARIA menu button pattern): the button says that it
 * opens a menu and whether it is open; Enter, Space or Down Arrow open it on its first item, Up Arrow on its last;
 * in the menu the arrow keys, Home and End move among the items, Escape closes it and gives the focus back to the
 * button, and Tab closes it. Choosing an item closes the menu, gives the focus back to the button (where a dialog
 * the item opens returns it), then hands the item to the page.
 */
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { QuickActionChoice } from './record-actions';

export function ActionsMenu({
  actions,
  onChoose,
}: {
  actions: readonly QuickActionChoice[];
  onChoose: (action: QuickActionChoice) => void;
}) {
  const [open, setOpen] = useState(false);
  /** The item to focus once the menu is drawn: first or last. */
  const [start, setStart] = useState<'first' | 'last'>('first');
  const toggle = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLUListElement>(null);

  const items = () => [...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
  useEffect(() => {
    if (!open) return;
    const all = items();
    (start === 'first' ? all[0] : all.at(-1))?.focus();
  }, [open, start]);

  const openAt = (where: 'first' | 'last') => {
    setStart(where);
    setOpen(true);
  };
  const close = () => {
    setOpen(false);
    toggle.current?.focus();
  };

  const onButtonKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      openAt(event.key === 'ArrowDown' ? 'first' : 'last');
    }
  };
  const onMenuKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    const all = items();
    const index = all.indexOf(document.activeElement as HTMLElement);
    const moveTo = (next: number) => {
      event.preventDefault();
      all[(next + all.length) % all.length]?.focus();
    };
    if (event.key === 'ArrowDown') moveTo(index + 1);
    else if (event.key === 'ArrowUp') moveTo(index - 1);
    else if (event.key === 'Home') moveTo(0);
    else if (event.key === 'End') moveTo(all.length - 1);
    else if (event.key === 'Escape') {
      event.preventDefault();
      close();
    } else if (event.key === 'Tab') setOpen(false);
  };

  return (
    <div
      className="bo-actions-menu"
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOpen(false);
      }}
    >
      <button
        ref={toggle}
        id="bo-more-actions"
        type="button"
        className="bo-button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? 'bo-more-actions-menu' : undefined}
        onClick={() => (open ? setOpen(false) : openAt('first'))}
        onKeyDown={onButtonKeyDown}
      >
        More actions
      </button>
      {open && (
        <ul
          ref={menu}
          id="bo-more-actions-menu"
          className="bo-menu"
          role="menu"
          aria-labelledby="bo-more-actions"
          onKeyDown={onMenuKeyDown}
        >
          {actions.map((action) => (
            <li key={action.apiName} role="none">
              <button
                type="button"
                role="menuitem"
                tabIndex={-1}
                aria-haspopup="dialog"
                onClick={() => {
                  close();
                  onChoose(action);
                }}
              >
                {action.label}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
