/** The session texts, word for word (docs/product-spec.md §8, Session messages). */
export const SESSION_TEXT = {
  timedOutToast: 'Your session has timed out. Try again.',
  warningTitle: 'Still there?',
  warningText:
    "For security, we suspend your session if you're inactive too long. If you don't click Continue Working within approximately 30 seconds, we log you out.",
  close: 'Close',
  logOut: 'Log Out',
  continueWorking: 'Continue Working',
} as const;
