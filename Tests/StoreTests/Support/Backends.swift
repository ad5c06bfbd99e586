import TestSupport

@testable import Store

/// A fresh location on `backend` with an account created in it, unlocked. Keep the location as
/// long as the stores.
func unlockedStore(on backend: StoreBackendKind) throws -> (TestStoreLocation, GatewayStore, UnlockedStore) {
    let location = try location(backend)
    let (store, unlocked) = try location.unlockedStore()
    return (location, store, unlocked)
}
