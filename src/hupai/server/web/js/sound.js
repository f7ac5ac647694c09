// Table sounds: short effects made with Web Audio (no sound files to ship) and spoken calls with Web
// Speech (zh-CN where the browser has such a voice). One toggle, remembered in localStorage. Every
// call returns at once: sound never holds up play, and a browser without audio simply stays silent.

import { language } from "./i18n.js";

const KEY = "hupai.sound";
let context = null;

export function soundOn() {
  return localStorage.getItem(KEY) !== "0";
}

export function setSound(on) {
  localStorage.setItem(KEY, on ? "1" : "0");
  if (!on && "speechSynthesis" in window) window.speechSynthesis.cancel();
}

// Browsers allow audio only after a gesture: the table calls this from its click handlers.
export function unlockSound() {
  if (context || !soundOn()) return;
  const Audio = window.AudioContext || window.webkitAudioContext;
  if (!Audio) return;
  try {
    context = new Audio();
  } catch {
    context = null;
  }
}

function tone({ frequency, duration, type = "sine", volume = 0.15, at = 0, slide = 0 }) {
  const start = context.currentTime + at;
  const oscillator = context.createOscillator();
  const gain = context.createGain();
  oscillator.type = type;
  oscillator.frequency.setValueAtTime(frequency, start);
  if (slide) oscillator.frequency.exponentialRampToValueAtTime(frequency * slide, start + duration);
  gain.gain.setValueAtTime(volume, start);
  gain.gain.exponentialRampToValueAtTime(0.001, start + duration);
  oscillator.connect(gain).connect(context.destination);
  oscillator.start(start);
  oscillator.stop(start + duration + 0.02);
}

// A tile set down on the felt: a short knock.
function knock() {
  tone({ frequency: 900, duration: 0.05, type: "triangle", volume: 0.25, slide: 0.5 });
  tone({ frequency: 220, duration: 0.08, type: "sine", volume: 0.2, at: 0.005 });
}

const EFFECTS = {
  discard: knock,
  draw: () => tone({ frequency: 520, duration: 0.04, type: "triangle", volume: 0.06 }),
  claim: () => {
    knock();
    tone({ frequency: 660, duration: 0.12, type: "square", volume: 0.05, at: 0.06 });
  },
  win: () => [523, 659, 784, 1047].forEach((frequency, index) => tone({ frequency, duration: 0.25, type: "triangle", volume: 0.12, at: index * 0.09 })),
  turn: () => tone({ frequency: 880, duration: 0.09, type: "sine", volume: 0.08 }),
  tick: () => tone({ frequency: 1200, duration: 0.03, type: "square", volume: 0.03 }),
};

export function playSound(kind) {
  if (!soundOn() || !context) return;
  try {
    if (context.state === "suspended") context.resume();
    (EFFECTS[kind] || knock)();
  } catch {
    // no audio output: play on silently
  }
}

// Say a call (碰, 杠, 胡 …) aloud, in Chinese where a Chinese voice exists.
export function speak(zh, en) {
  if (!soundOn() || !("speechSynthesis" in window)) return;
  try {
    const voices = window.speechSynthesis.getVoices();
    const chinese = voices.find((voice) => voice.lang && voice.lang.toLowerCase().startsWith("zh"));
    const useChinese = chinese || language() === "zh" || !en;
    const utterance = new SpeechSynthesisUtterance(useChinese ? zh : en);
    utterance.lang = useChinese ? "zh-CN" : "en-US";
    if (chinese && useChinese) utterance.voice = chinese;
    utterance.rate = 1.15;
    window.speechSynthesis.cancel();
    window.speechSynthesis.speak(utterance);
  } catch {
    // no speech here
  }
}
