// colors.js: company colours, by company name, for both editions. Colours
// only help the eye; every company is also written by name where it matters.
const COLORS = {
  // Building Amsterdam
  Gunpowder: '#5b5f66', Coal: '#222222', Porcelain: '#2f7fd6', Silk: '#9b4fc4',
  Spices: '#e07b1a', Sugar: '#e84d8a', Herring: '#2bb3b1', Tea: '#2e9a44', Tobacco: '#8a5a2b',
  // The Golden Age (Tea, Silk and Gunpowder as above)
  Gold: '#d4a514', Coffee: '#6b3e1f', Pepper: '#c62828', Gems: '#00897b', Opium: '#6a1b9a',
  Silver: '#8fa3b0',
};
const FALLBACK = ['#7b1fa2', '#00838f', '#ef6c00', '#1565c0', '#558b2f', '#ad1457', '#4e342e', '#37474f', '#f9a825'];

export function companyColor(name, index) {
  return COLORS[name] || FALLBACK[(index || 0) % FALLBACK.length];
}

// Text colour that reads on the company colour.
export function inkOn(hex) {
  const v = parseInt(hex.slice(1), 16);
  const r = v >> 16, g = (v >> 8) & 255, b = v & 255;
  return (0.299 * r + 0.587 * g + 0.114 * b) > 150 ? '#111' : '#fff';
}

export const SEAT_COLORS = ['#d32f2f', '#1976d2', '#388e3c', '#f57c00', '#7b1fa2', '#0097a7'];
