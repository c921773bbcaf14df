import { useEffect, useState } from 'react';

/** `value`, once it has stayed the same for `ms`: a search box searches after the last key, not at each one. */
export function useSettled(value: string, ms: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}
