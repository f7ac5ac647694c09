// Small line icons drawn as inline SVG, so that no icon depends on a font the device may lack.

const PATHS = {
  soundOn: '<path d="M3 9h4l5-4v14l-5-4H3z"/><path d="M16 8.5a5 5 0 0 1 0 7M18.5 6a8.5 8.5 0 0 1 0 12" fill="none"/>',
  soundOff: '<path d="M3 9h4l5-4v14l-5-4H3z"/><path d="M16 9l5 6M21 9l-5 6" fill="none"/>',
  mic: '<rect x="9" y="3" width="6" height="11" rx="3"/><path d="M5.5 11a6.5 6.5 0 0 0 13 0M12 17.5V21M8.5 21h7" fill="none"/>',
  micOff: '<rect x="9" y="3" width="6" height="11" rx="3"/><path d="M5.5 11a6.5 6.5 0 0 0 13 0M12 17.5V21M8.5 21h7M4 4l16 16" fill="none"/>',
  first: '<path d="M6 5v14"/><path d="M19 5l-10 7 10 7z"/>',
  back: '<path d="M17 5L7 12l10 7z"/>',
  play: '<path d="M7 5l12 7-12 7z"/>',
  pause: '<path d="M7 5h3v14H7zM14 5h3v14h-3z"/>',
  next: '<path d="M7 5l10 7-10 7z"/>',
  last: '<path d="M18 5v14"/><path d="M5 5l10 7-10 7z"/>',
  turnSideways: '<rect x="3" y="3" width="8" height="14" rx="1.5" fill="none"/><rect x="9" y="15" width="12" height="6" rx="1.2" fill="none" opacity="0.6"/><path d="M14 4.5a6 6 0 0 1 5 5.5M19 10l-2.2-1.4M19 10l1.3-2.3" fill="none"/>',
};

export function icon(name, label = "") {
  const aria = label ? `role="img" aria-label="${label}"` : 'aria-hidden="true"';
  return `<svg class="icon" viewBox="0 0 24 24" width="1em" height="1em" fill="currentColor" stroke="currentColor" stroke-width="1.6" stroke-linejoin="round" stroke-linecap="round" ${aria}>${PATHS[name]}</svg>`;
}
