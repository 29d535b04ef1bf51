import { useEffect } from 'react';
import { FLASH_MS, type UiAction, type UiState } from '../screen/ui-state';

/** Clears a flash that is not sticky after FLASH_MS, unless another one replaced it meanwhile. */
export function useFlashFade(
  flash: UiState['flash'],
  current: () => UiState,
  dispatch: (action: UiAction) => void,
): void {
  useEffect(() => {
    if (!flash || flash.sticky) return;
    const timer = setTimeout(() => {
      if (current().flash === flash) dispatch({ type: 'flash', flash: null });
    }, FLASH_MS);
    return () => clearTimeout(timer);
  }, [flash, current, dispatch]);
}
