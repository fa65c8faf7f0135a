/** Saves text as a file through the browser's download (works in the Electron window and in browser mode). */
export function downloadText(fileName: string, content: string, mimeType: string): void {
  const url = URL.createObjectURL(new Blob([content], { type: mimeType }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // the download has its own reference once started
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
