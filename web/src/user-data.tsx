/**
 * The user data provider around the page: whether the visitor is a guest and, for a signed-in user, the
 * user id, the only distinction of roles the page makes (docs/product-spec.md §6). SessionProvider
 * (session/SessionProvider.tsx) provides it from the server's getSession answer, which the server renders
 * with and sends along for hydration.
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
