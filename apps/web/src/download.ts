/**
 * Offers `text` to the user as a file, as a link to the API would, but from text the page fetched
 * itself: a plain link would not send the API token the page keeps (sessionStorage), and the
 * server would answer 401.
 */
export function saveText(text: string, filename: string, type: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement("a");
  a.href = url;
  a.download = filename;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  // After the click has handed the URL to the download: revoking at once may cancel it in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
