import GestureKit
