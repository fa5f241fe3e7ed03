/** The entries of a comma-separated setting, each trimmed, empty ones left out (none when unset). */
export function settingList(value: string | undefined): string[] {
  return (value ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
}
