//! A saved column or resource, without its type: what a `WorldState` holds.

use core::any::Any;

/// A saved value of some type, cloneable without knowing it.
pub(crate) trait SavedValue: Any + Send + Sync {
    fn clone_box(&self) -> Box<dyn SavedValue>;
    fn as_any(&self) -> &dyn Any;
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

impl<V: Any + Send + Sync + Clone> SavedValue for V {
    fn clone_box(&self) -> Box<dyn SavedValue> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}
