/** A file's size as a person reads it: 812 B, 14.2 MB, 1.3 GB (powers of 1,000, as disks are sold). */
export function describeSize(bytes: number): string {
  const units = ["B", "kB", "MB", "GB", "TB"];
  let size = bytes;
  let unit = 0;
  while (size >= 1000 && unit < units.length - 1) {
    size /= 1000;
    unit++;
  }
  return unit === 0 ? `${size} B` : `${size.toFixed(1)} ${units[unit]}`;
}
