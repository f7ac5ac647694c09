// 语音: the people at a table talk, browser to browser (WebRTC), push to talk. The server only passes
// the signals on (docs/protocol.md, `voice`); no sound goes through it. Whoever joins is on every
// reader's roster (a microphone mark on the plate); each pair of members connects, the lower seat
// offering. The microphone stays silent except while 按住说话 is held; 静音 silences the others in
// this page. Browsers give a page the microphone only in a secure context (HTTPS or localhost): on
// plain HTTP over a LAN the button says so instead.

import { t } from "./i18n.js";
import { icon } from "./icons.js";
import { escapeHtml, html, toast } from "./util.js";

const POLL_MS = 300; // how often the others' sound levels are read (the speaking glow)
const SPEAKING = 0.03; // an audio level above this lights the plate

export function voicePossible() {
  return window.isSecureContext && Boolean(navigator.mediaDevices && navigator.mediaDevices.getUserMedia) && typeof RTCPeerConnection === "function";
}

export class Voice {
  constructor(client) {
    this.client = client;
    this.roster = new Set(); // seats in the table's voice, as the server last said
    this.iceServers = [];
    this.stream = null; // our microphone, while we are in the voice
    this.peers = new Map(); // seat -> { pc, audio, bytes, level }
    this.muted = false; // the others silenced in this page
    this.bar = null;
    this.poller = null;
  }

  get joined() {
    return this.stream !== null;
  }

  buttonHtml() {
    if (!voicePossible()) {
      return `<button type="button" data-role="voice" class="off" aria-disabled="true" title="${t("voice.insecure")}">${icon("micOff")} ${t("voice.button")}</button>`;
    }
    return `<button type="button" data-role="voice" aria-pressed="${this.joined}">${icon(this.joined ? "mic" : "micOff")} ${t(this.joined ? "voice.leave" : "voice.button")}</button>`;
  }

  // A seat's mark on its plate: in the voice (and lit while it speaks: see poll()).
  markHtml(seat) {
    return this.roster.has(seat) ? `<span class="tag voice-mark" data-role="in-voice" title="${t("voice.inVoice")}">${icon("mic")}</span>` : "";
  }

  async toggle() {
    if (!voicePossible()) {
      toast(t("voice.insecure"), "error");
      return;
    }
    if (this.joined) this.leave();
    else await this.join();
  }

  async join() {
    try {
      this.stream = await navigator.mediaDevices.getUserMedia({ audio: { echoCancellation: true, noiseSuppression: true } });
    } catch {
      toast(t("voice.noMicrophone"), "error");
      return;
    }
    this.talk(false); // push to talk: silent until the button is held
    this.showBar();
    sessionStorage.setItem(this.rememberKey(), "1"); // a reload of this table rejoins (rejoin())
    this.client.send({ type: "voice", kind: "join" });
    this.poller = setInterval(() => this.poll(), POLL_MS);
    this.client.render();
  }

  leave({ tell = true } = {}) {
    if (tell) {
      this.client.send({ type: "voice", kind: "leave" });
      sessionStorage.removeItem(this.rememberKey()); // left on purpose: a reload does not bring it back
    }
    for (const seat of [...this.peers.keys()]) this.drop(seat);
    if (this.stream) for (const track of this.stream.getTracks()) track.stop();
    this.stream = null;
    clearInterval(this.poller);
    this.poller = null;
    if (this.bar) this.bar.remove();
    document.body.classList.remove("voice-on");
    this.bar = null;
    this.client.render();
  }

  close() {
    if (this.joined) this.leave({ tell: false }); // the socket closes too: the server drops us
  }

  rememberKey() {
    return `hupai.voice.${this.client.number}`;
  }

  // A new socket (after a reconnect): the server dropped us with the old one, so join again afresh.
  // After a reload (or on coming back to the table), a player who was talking here joins again, or
  // is told why not (no microphone allowed, an insecure page).
  rejoin() {
    if (this.joined) {
      for (const seat of [...this.peers.keys()]) this.drop(seat);
      this.client.send({ type: "voice", kind: "join" });
      return;
    }
    if (this.rejoining || sessionStorage.getItem(this.rememberKey()) !== "1") return;
    if (!voicePossible()) {
      toast(t("voice.insecure"), "error");
      return;
    }
    this.rejoining = true;
    this.join().finally(() => {
      this.rejoining = false;
    });
  }

  talk(on) {
    if (!this.stream) return;
    for (const track of this.stream.getAudioTracks()) track.enabled = on;
    if (this.bar) this.bar.querySelector('[data-role="talk"]').setAttribute("aria-pressed", String(on));
  }

  // The floating bar: 按住说话 (held: the microphone is open) and 静音. It lives outside the view, which
  // redraws on every message, so that a held button stays held.
  showBar() {
    const bar = html(`<div class="voice-bar" data-role="voice-bar">
      <button type="button" class="talk" data-role="talk" aria-pressed="false">${icon("mic")}<span>${t("voice.talk")}</span></button>
      <button type="button" class="voice-mute" data-role="voice-mute" aria-pressed="false">${icon("soundOff")}<span>${t("voice.mute")}</span></button>
      <span class="voice-peers" data-role="voice-peers"></span>
    </div>`);
    const talk = bar.querySelector('[data-role="talk"]');
    talk.addEventListener("pointerdown", (event) => {
      talk.setPointerCapture(event.pointerId);
      this.talk(true);
    });
    for (const end of ["pointerup", "pointercancel", "lostpointercapture"]) talk.addEventListener(end, () => this.talk(false));
    talk.addEventListener("contextmenu", (event) => event.preventDefault()); // a long press is not a menu
    bar.querySelector('[data-role="voice-mute"]').addEventListener("click", (event) => {
      this.muted = !this.muted;
      event.currentTarget.setAttribute("aria-pressed", String(this.muted));
      for (const peer of this.peers.values()) peer.audio.muted = this.muted;
    });
    document.body.append(bar);
    document.body.classList.add("voice-on"); // the table leaves room for the bar below it
    this.bar = bar;
  }

  // A `voice` message from the server.
  async heard(message) {
    if (message.kind === "roster") {
      this.roster = new Set(message.seats);
      await this.connectPeers();
      this.client.render();
      return;
    }
    if (message.kind === "taken") {
      toast(t("voice.taken"));
      this.leave({ tell: false });
      return;
    }
    if (!this.joined) return;
    const seat = message.from;
    try {
      if (message.kind === "offer") {
        const peer = this.peer(seat);
        await peer.pc.setRemoteDescription({ type: "offer", sdp: message.sdp });
        await peer.pc.setLocalDescription(await peer.pc.createAnswer());
        this.client.send({ type: "voice", kind: "answer", to: seat, sdp: peer.pc.localDescription.sdp });
      } else if (message.kind === "answer" && this.peers.has(seat)) {
        await this.peers.get(seat).pc.setRemoteDescription({ type: "answer", sdp: message.sdp });
      } else if (message.kind === "ice" && this.peers.has(seat)) {
        await this.peers.get(seat).pc.addIceCandidate(
          message.candidate ? { candidate: message.candidate, sdpMid: message.mid, sdpMLineIndex: message.line } : null,
        );
      }
    } catch (error) {
      console.warn("voice signal", message.kind, error);
    }
  }

  // Connect to every member we have no line to (the lower seat offers); drop those who left.
  async connectPeers() {
    const mine = this.client.seat;
    for (const seat of [...this.peers.keys()]) if (!this.roster.has(seat)) this.drop(seat);
    if (!this.joined || !this.roster.has(mine)) return;
    for (const seat of this.roster) {
      if (seat === mine || this.peers.has(seat) || mine > seat) continue;
      const peer = this.peer(seat);
      await peer.pc.setLocalDescription(await peer.pc.createOffer());
      this.client.send({ type: "voice", kind: "offer", to: seat, sdp: peer.pc.localDescription.sdp });
    }
  }

  peer(seat) {
    const known = this.peers.get(seat);
    if (known) return known;
    const servers = this.iceServers.length ? [{ urls: this.iceServers }] : [];
    const pc = new RTCPeerConnection({ iceServers: servers });
    for (const track of this.stream.getAudioTracks()) pc.addTrack(track, this.stream);
    const audio = document.createElement("audio");
    audio.autoplay = true;
    audio.muted = this.muted;
    audio.dataset.seat = String(seat);
    audio.hidden = true;
    document.body.append(audio);
    pc.addEventListener("track", (event) => {
      audio.srcObject = event.streams[0] || new MediaStream([event.track]);
    });
    pc.addEventListener("icecandidate", (event) => {
      const found = event.candidate;
      this.client.send({
        type: "voice", kind: "ice", to: seat,
        candidate: found ? found.candidate : "", mid: found ? found.sdpMid : null, line: found ? found.sdpMLineIndex : null,
      });
    });
    const peer = { pc, audio, bytes: 0, level: 0 };
    this.peers.set(seat, peer);
    return peer;
  }

  drop(seat) {
    const peer = this.peers.get(seat);
    if (!peer) return;
    peer.pc.close();
    peer.audio.remove();
    this.peers.delete(seat);
    this.showPeers();
  }

  // Read each line's incoming sound: bytes so far and the level now (the plate glows while it speaks).
  async poll() {
    for (const [seat, peer] of this.peers) {
      const stats = await peer.pc.getStats();
      stats.forEach((report) => {
        if (report.type === "inbound-rtp" && report.kind === "audio") {
          peer.bytes = report.bytesReceived || 0;
          peer.level = report.audioLevel || 0;
        }
      });
      const plate = document.querySelector(`.corner[data-seat="${seat}"] [data-role="plate"]`);
      if (plate) plate.classList.toggle("speaking", !this.muted && peer.level > SPEAKING);
    }
    this.showPeers();
  }

  // Who we hear, for the reader (and for tests): one chip per line with its state.
  showPeers() {
    if (!this.bar) return;
    const chips = [...this.peers.entries()].map(([seat, peer]) =>
      `<span class="voice-peer" data-role="voice-peer" data-seat="${seat}" data-state="${peer.pc.connectionState}" data-bytes="${peer.bytes}" data-level="${peer.level.toFixed(3)}" title="${escapeHtml(this.client.seatName(seat))}">${escapeHtml(Array.from(this.client.seatName(seat)).slice(0, 2).join(""))}</span>`);
    this.bar.querySelector('[data-role="voice-peers"]').innerHTML = chips.join("");
  }
}
