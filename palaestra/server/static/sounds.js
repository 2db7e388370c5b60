// Move sounds (issue 30): short tones made by the Web Audio API (no sound files): one for a move of
// this browser's seats, a lower one for the others' moves, a chord when the game ends. The header's
// switch mutes them; the choice is kept in this browser (localStorage "palaestra.sound").
//
// For tests and curious people: window.__palaestraSounds counts the sounds played ({count, last}).

const STORE = "palaestra.sound";
const TONES = {
  mine: [[660, 0, 0.09]],
  other: [[440, 0, 0.11]],
  end: [[523, 0, 0.18], [659, 0.06, 0.18], [784, 0.12, 0.28]],
};
window.__palaestraSounds = { count: 0, last: null };

export function muted() { return localStorage.getItem(STORE) === "off"; }
export function setMuted(off) { localStorage.setItem(STORE, off ? "off" : "on"); }

let audio = null;
function context() {
  if (!audio) {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return null;
    audio = new Context();
  }
  if (audio.state === "suspended") audio.resume().catch(() => {});
  return audio;
}

// play the sound of kind "mine", "other" or "end" (nothing when muted)
export function playSound(kind) {
  if (muted() || !(kind in TONES)) return false;
  window.__palaestraSounds.count += 1;
  window.__palaestraSounds.last = kind;
  try {
    const ctx = context();
    if (!ctx) return true;
    const now = ctx.currentTime;
    for (const [frequency, start, length] of TONES[kind]) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = "triangle";
      osc.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, now + start);
      gain.gain.exponentialRampToValueAtTime(0.18, now + start + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, now + start + length);
      osc.connect(gain).connect(ctx.destination);
      osc.start(now + start);
      osc.stop(now + start + length + 0.02);
    }
  } catch (err) { console.warn("no sound", err); }
  return true;
}
