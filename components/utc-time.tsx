// Times are shown in UTC, the same for every reader and for the server's logs,
// with the exact instant in <time dateTime>.
export function UtcTime({ date, fallback = "never" }: { date: Date | null; fallback?: string }) {
  if (!date) return <>{fallback}</>;
  const iso = date.toISOString();
  return <time dateTime={iso}>{`${iso.slice(0, 16).replace("T", " ")} UTC`}</time>;
}
