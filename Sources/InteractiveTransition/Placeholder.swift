public enum InteractiveTransitionModule {}
