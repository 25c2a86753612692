/** What a sign-in refused after too many failures says (next-auth's error gives the seconds to wait): whole minutes, at least one. */
export function tooManySignIns(seconds: string | undefined): string {
  const minutes = Math.max(1, Math.ceil(Number(seconds) / 60));
  return `Too many failed sign-ins. Wait ${minutes} minute${minutes === 1 ? "" : "s"}, then try again.`;
}
