/** Deletes `names` from an object's storage, in the batches of 128 keys one delete takes at most. */
export async function deleteKeys(storage: DurableObjectStorage, names: readonly string[]): Promise<void> {
  for (let i = 0; i < names.length; i += 128) await storage.delete(names.slice(i, i + 128));
}
