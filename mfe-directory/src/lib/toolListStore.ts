import { create } from 'zustand';
import type { ToolList } from './loadTools';

/** The tool list loaded in this browser tab: returning to / in-app (e.g. Back from a tool) renders at once,
 *  without a new request. Filtering and sorting work on it; the server never writes it. */
export const useToolListStore = create<{ list: ToolList | null }>(() => ({ list: null }));

export function rememberToolList(list: ToolList): void {
  useToolListStore.setState({ list });
}

export function forgetToolList(): void {
  useToolListStore.setState({ list: null });
}
