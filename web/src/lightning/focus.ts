/**
 * After a move to another screen in place (a row's link, a tab), the focus would stay on a link that is gone, and
 * fall to the page's body: it goes to the main landmark instead, from where a keyboard or screen reader user
 * reads the new screen. A new order or page of the same list is not another screen: the focus stays where it is.
 */
import { useEffect, useRef } from 'react';

export function useFocusMainOnNewScreen(screen: string): void {
  const previous = useRef(screen);
  useEffect(() => {
    if (previous.current === screen) return;
    previous.current = screen;
    document.getElementById('main')?.focus();
  }, [screen]);
}
