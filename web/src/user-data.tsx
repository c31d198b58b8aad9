/**
 * The user data provider around the page (product spec §2, §6): whether the visitor is a guest and, for a
 * signed-in user, the user id. There are no sessions yet, so every visitor is a guest; the session work
 * decides the user on the server from the request and passes it to <Root user={...}>, and must send the
 * same value to the browser so that hydration sees the same tree.
 */
import { createContext, useContext, type ReactNode } from 'react';

export type UserData = { isGuest: true } | { isGuest: false; userId: string };

export const GUEST: UserData = { isGuest: true };

const UserDataContext = createContext<UserData>(GUEST);

export function UserDataProvider({ value, children }: { value: UserData; children: ReactNode }) {
  return <UserDataContext.Provider value={value}>{children}</UserDataContext.Provider>;
}

export function useUserData(): UserData {
  return useContext(UserDataContext);
}
