// A short chime when it becomes the player's move, synthesised (no audio file). M toggles it;
// the choice is remembered. The audio context starts only after a user gesture.
const KEY = "gm-sound";
let context = null;

export function soundOn() {
  return localStorage.getItem(KEY) !== "off";
}

export function setSound(on) {
  localStorage.setItem(KEY, on ? "on" : "off");
}

function unlock() {
  if (!context && window.AudioContext) context = new AudioContext();
}
window.addEventListener("pointerdown", unlock, { once: true });
window.addEventListener("keydown", unlock, { once: true });

export function chime() {
  if (!soundOn() || !context || context.state !== "running") return;
  const now = context.currentTime;
  [660, 880].forEach((frequency, index) => {
    const tone = context.createOscillator();
    const gain = context.createGain();
    tone.frequency.value = frequency;
    gain.gain.setValueAtTime(0.0001, now + index * 0.12);
    gain.gain.exponentialRampToValueAtTime(0.15, now + index * 0.12 + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + index * 0.12 + 0.25);
    tone.connect(gain).connect(context.destination);
    tone.start(now + index * 0.12);
    tone.stop(now + index * 0.12 + 0.3);
  });
}
