// A short chime when it becomes your turn (WebAudio: nothing to download), muted from the header.

export class Sound {
  constructor(button, storage) {
    this.button = button;
    this.storage = storage;
    this.on = storage?.getItem("boneyard.sound") !== "off";
    this.context = null;
    this.show();
    button.addEventListener("click", () => {
      this.on = !this.on;
      storage?.setItem("boneyard.sound", this.on ? "on" : "off");
      this.show();
    });
  }

  show() {
    this.button.setAttribute("aria-pressed", String(this.on));
    this.button.textContent = this.on ? "Sound on" : "Sound off";
    this.button.title = this.on ? "Sound on your turn: on" : "Sound on your turn: off";
  }

  turn() {
    if (!this.on || typeof AudioContext === "undefined") return;
    try {
      this.context ??= new AudioContext();
      const now = this.context.currentTime;
      for (const [i, pitch] of [660, 880].entries()) {
        const tone = this.context.createOscillator();
        const gain = this.context.createGain();
        tone.frequency.value = pitch;
        gain.gain.setValueAtTime(0.0001, now + i * 0.12);
        gain.gain.exponentialRampToValueAtTime(0.15, now + i * 0.12 + 0.02);
        gain.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.12 + 0.2);
        tone.connect(gain).connect(this.context.destination);
        tone.start(now + i * 0.12);
        tone.stop(now + i * 0.12 + 0.22);
      }
    } catch {
      // A browser that refuses audio before a gesture: no chime, nothing else changes.
    }
  }
}
