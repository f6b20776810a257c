import { safeTimeZone } from './pricing.service';

describe('safeTimeZone', () => {
  it('keeps a zone the runtime knows and answers UTC for one it does not, the same every time', () => {
    for (let i = 0; i < 3; i++) {
      expect(safeTimeZone('Europe/Berlin')).toBe('Europe/Berlin');
      expect(safeTimeZone('America/New_York')).toBe('America/New_York');
      expect(safeTimeZone('Mars/Olympus_Mons')).toBe('UTC');
      expect(safeTimeZone('')).toBe('UTC');
    }
  });
});
