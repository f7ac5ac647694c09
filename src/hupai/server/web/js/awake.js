// The screen stays on while a hand is played (issue 47): a phone that dims and locks mid-hand drops
// its socket. The Screen Wake Lock is held while the table is in play, given back between matches and
// when the player leaves, and taken again when the page comes back to the front (the browser lets it
// go whenever the page is hidden). Where the API is missing nothing happens.

let wanted = false;
let sentinel = null;
let asking = null;

async function take() {
  if (!wanted || sentinel || asking || !("wakeLock" in navigator) || document.visibilityState !== "visible") return;
  asking = navigator.wakeLock.request("screen");
  try {
    const held = await asking;
    if (!wanted) {
      held.release();
      return;
    }
    sentinel = held;
    held.addEventListener("release", () => {
      if (sentinel === held) sentinel = null;
    });
  } catch {
    // Refused (battery saver, a policy): the game goes on, the screen may dim.
  } finally {
    asking = null;
  }
}

document.addEventListener("visibilitychange", take);

// Hold the screen awake (true) or let it go (false); called on every redraw of a room.
export function stayAwake(on) {
  wanted = on;
  if (on) {
    take();
  } else if (sentinel) {
    const held = sentinel;
    sentinel = null;
    held.release().catch(() => {});
  }
}

// Whether the lock is held now (the browser tests ask).
export function holdsScreen() {
  return sentinel !== null;
}
